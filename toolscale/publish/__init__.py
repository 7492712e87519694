"""What users do with an output: card, validate, push, export, check-rewards, check-domain."""
