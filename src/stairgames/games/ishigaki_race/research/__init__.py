"""Ishigaki Race studied exactly: compiled search kernels, solvers, the solve command, studies."""
