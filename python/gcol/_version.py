"""The package version; it follows GCOL_VERSION_* in gcol.h (a test checks)."""
__version__ = "1.4.0"
