"""What City of Stairs offers computer players: evaluation, playouts, the observation tensor."""
