"""The one home of the package's version."""

__version__ = "0.1.0"
