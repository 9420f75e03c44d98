"""What 27 offers computer players: evaluation, playouts, the observation tensor."""
