"""The dataset on disk: fixed features, the output folder, the rows' JSON Schemas."""
