"""Tools shared by several domains, as Toolkit mixins: arithmetic, code execution, experts."""
