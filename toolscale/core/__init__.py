"""What every stage shares: the domain contract, records, canonical state, patches, ids, errors."""
