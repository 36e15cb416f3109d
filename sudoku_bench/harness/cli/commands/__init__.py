"""One module per sub-command; each exposes `add_parser(subparsers)`."""
