"""The error a user can fix: printed as one line by the CLI, with a non-zero exit."""


class ConfigError(Exception):
    """Bad input or configuration: says what is wrong and what to write instead."""
