"""The ``engram`` subcommands, a module per concern; each ``add_<command>`` adds its parser
(``engram_cli.main.build_parser`` calls them in order) and ``cmd_<command>`` runs it."""
