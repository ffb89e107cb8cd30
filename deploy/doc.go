// Package deploy holds the Kubernetes manifests (kubernetes/) and the
// container image (Dockerfile) that run an evaluation as shards of an
// Indexed Job against pools of bots, then merge the shards: README.md
// says how. It has no code: its test decodes every manifest strictly into
// the Kubernetes API types (k8s.io/api, kept out of the core module's
// go.mod by this module of its own) and checks that they agree.
package deploy
