// The contract's types are part of the core's API (a profile's `StorageKind`, `DPoPMode`, the
// settings catalogue): whoever imports the core sees them, as it did when they lived here.
@_exported import KCAuthContract
