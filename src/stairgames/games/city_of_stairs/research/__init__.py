"""City of Stairs studied exactly: compiled search kernels, solvers, the solve command, studies."""
