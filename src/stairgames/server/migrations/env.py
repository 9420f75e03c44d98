"""Alembic's environment: runs the migrations on the connection the server passes in
(``config.attributes["connection"]``), or on ``-x url=...`` from the command line."""

from __future__ import annotations

from alembic import context
from sqlalchemy import create_engine
from sqlalchemy.engine import Connection


def _migrate(connection: Connection) -> None:
    context.configure(connection=connection, render_as_batch=True)
    with context.begin_transaction():
        context.run_migrations()


def run() -> None:
    connection = context.config.attributes.get("connection")
    if connection is not None:
        _migrate(connection)
        return
    url = context.get_x_argument(as_dictionary=True).get("url", "sqlite:///data/stairgames.db")
    with create_engine(url).begin() as own_connection:
        _migrate(own_connection)


if __name__ != "__main__" and hasattr(context, "config"):
    run()
