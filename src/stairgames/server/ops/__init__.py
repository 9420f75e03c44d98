"""Operations: health checks and metrics (above every domain, below ``app``)."""
