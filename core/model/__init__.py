"""The workspace model: file names, the contract's models and their validation, the
workspace on disk, runtime profiles, inputs, scenarios and the resolution matrix."""
