"""`python -m callgate.cli`: the command line, as the `callgate` script runs it."""

from callgate.cli import main

if __name__ == "__main__":
    main()
