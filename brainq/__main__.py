"""`python -m brainq` runs the command line."""

from brainq.cli import main

main()
