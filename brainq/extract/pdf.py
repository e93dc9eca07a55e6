"""Placeholder until the pdf extractor lands."""

KIND = "pdf"


def sniff(name, head):
    return False


def extract(item, limits):
    return iter(())
