"""`python -m callgate`: the command line."""

from callgate.cli import main

if __name__ == "__main__":
    main()
