"""Placeholder until the text extractor lands."""

KIND = "text"


def sniff(name, head):
    return False


def extract(item, limits):
    return iter(())
