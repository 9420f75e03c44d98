"""Typing at the terminal in tests: answers to prompts from a list."""

from __future__ import annotations

from collections.abc import Callable, Sequence


def scripted(lines: Sequence[str | type[BaseException]]) -> Callable[[str], str]:
    """Answers the prompts with ``lines``; an exception class in the list is raised
    (``KeyboardInterrupt`` for Ctrl-C); end of input after the last."""
    feed = iter(lines)

    def answer(prompt: str) -> str:
        del prompt
        item = next(feed, EOFError)
        if isinstance(item, str):
            return item
        raise item()

    return answer
