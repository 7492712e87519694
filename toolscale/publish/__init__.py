"""What users do with an output: the card, validate, push, export."""
