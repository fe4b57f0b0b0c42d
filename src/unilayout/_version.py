"""The package version, on the ground floor so that the command and the plans need not import the package top."""

__version__ = "0.1.0"
