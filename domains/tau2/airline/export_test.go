package airline

// Specs exposes the domain's tool list to the external tests.
var Specs = specs
