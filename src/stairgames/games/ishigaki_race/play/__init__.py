"""What Ishigaki Race offers computer players: evaluation, playouts, the observation tensor."""
