"""Bridges to other game libraries (OpenSpiel: :mod:`stairgames.interop.openspiel`)."""
