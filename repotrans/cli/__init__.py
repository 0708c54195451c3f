"""repotrans command line: one module per command group (arguments + run), shared options in
`options`, what is printed in `output`, the parser and the entry point in `main`."""
from repotrans.cli.main import build_parser, main

__all__ = ["build_parser", "main"]
