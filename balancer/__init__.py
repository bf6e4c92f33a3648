"""balancer: balance card games by simulation."""

__version__ = "0.1.0"
