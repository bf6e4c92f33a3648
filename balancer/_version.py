"""balancer's version, at the bottom: reports and Dask workers record it from here."""

__version__ = "0.2.0"
