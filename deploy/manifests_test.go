package deploy

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"maps"
	"net"
	"net/url"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"

	appsv1 "k8s.io/api/apps/v1"
	batchv1 "k8s.io/api/batch/v1"
	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/util/intstr"
	kjson "sigs.k8s.io/json"
	"sigs.k8s.io/yaml"
)

// image is the placeholder every container names; users replace it with
// the image they build from deploy/Dockerfile.
const image = "ghcr.io/your-org/schematools:v0.1.0"

// kinds are the objects the manifests may hold: each kind's apiVersion and
// its Go type. Any other kind fails the test.
var kinds = map[string]struct {
	apiVersion string
	new        func() any
}{
	"Job":                   {"batch/v1", func() any { return new(batchv1.Job) }},
	"Deployment":            {"apps/v1", func() any { return new(appsv1.Deployment) }},
	"Service":               {"v1", func() any { return new(corev1.Service) }},
	"PersistentVolumeClaim": {"v1", func() any { return new(corev1.PersistentVolumeClaim) }},
}

// document is one decoded document of a manifest file.
type document struct {
	where string // file:n, n counting the file's non-empty documents from 1
	obj   any    // *batchv1.Job, *appsv1.Deployment, ...
}

// documentSeparator is a YAML document marker line.
var documentSeparator = regexp.MustCompile(`(?m)^---[ \t]*$`)

// decodeDocument converts one YAML document to JSON and decodes it into
// the API type of its kind, strictly: an unknown, misspelt (JSON field
// names are matched exactly, as the API server does) or duplicated field,
// trailing data, an unknown kind or a kind under another apiVersion is an
// error. A document of comments only gives a nil object.
func decodeDocument(doc []byte) (any, error) {
	js, err := yaml.YAMLToJSONStrict(doc)
	if err != nil {
		return nil, err
	}
	if string(js) == "null" {
		return nil, nil
	}
	var meta struct {
		APIVersion string `json:"apiVersion"`
		Kind       string `json:"kind"`
	}
	if err := json.Unmarshal(js, &meta); err != nil {
		return nil, err
	}
	k, ok := kinds[meta.Kind]
	if !ok {
		return nil, fmt.Errorf("kind %q: not one of %v", meta.Kind, slices.Sorted(maps.Keys(kinds)))
	}
	if meta.APIVersion != k.apiVersion {
		return nil, fmt.Errorf("%s: apiVersion %q, want %q", meta.Kind, meta.APIVersion, k.apiVersion)
	}
	obj := k.new()
	dec := json.NewDecoder(bytes.NewReader(js))
	dec.DisallowUnknownFields()
	if err := dec.Decode(obj); err != nil {
		return nil, fmt.Errorf("%s: %w", meta.Kind, err)
	}
	if _, err := dec.Token(); !errors.Is(err, io.EOF) {
		return nil, fmt.Errorf("%s: data after the object", meta.Kind)
	}
	// encoding/json matches field names case-insensitively ("Completions"
	// would pass); sigs.k8s.io/json, the API server's decoder, does not.
	strict, err := kjson.UnmarshalStrict(js, k.new())
	if err != nil {
		return nil, fmt.Errorf("%s: %w", meta.Kind, err)
	}
	if len(strict) > 0 {
		return nil, fmt.Errorf("%s: %w", meta.Kind, errors.Join(strict...))
	}
	return obj, nil
}

// loadManifests decodes every document of every kubernetes/*.yaml file.
func loadManifests(t *testing.T) []document {
	t.Helper()
	files, err := filepath.Glob(filepath.Join("kubernetes", "*.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	if len(files) == 0 {
		t.Fatal("no kubernetes/*.yaml file")
	}
	var docs []document
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		n := 0
		for _, part := range documentSeparator.Split(string(data), -1) {
			obj, err := decodeDocument([]byte(part))
			if err != nil {
				t.Fatalf("%s, document %d: %v", f, n+1, err)
			}
			if obj == nil {
				continue
			}
			n++
			docs = append(docs, document{where: fmt.Sprintf("%s:%d", filepath.Base(f), n), obj: obj})
		}
		if n == 0 {
			t.Errorf("%s holds no object", f)
		}
	}
	t.Logf("%d objects decoded strictly from %d files", len(docs), len(files))
	return docs
}

// Every manifest decodes strictly into the Kubernetes API types, and the
// manifests agree with each other: the evaluate Job is Indexed with one
// pod per shard, resolves both pools' headless Services (Deployments of
// shards x -parallel bots), writes to the volume the
// merge Job reads, under the directory merge is given; the Services select
// the bots' pods and reach their ports; every container runs the one image.
func TestManifests(t *testing.T) {
	docs := loadManifests(t)
	var (
		jobs      []*batchv1.Job
		workloads []workload
		services  []*corev1.Service
		claims    = map[string]*corev1.PersistentVolumeClaim{}
	)
	for _, d := range docs {
		switch o := d.obj.(type) {
		case *batchv1.Job:
			jobs = append(jobs, o)
		case *appsv1.Deployment:
			workloads = append(workloads, workload{kind: "Deployment", name: o.Name, replicas: o.Spec.Replicas, selector: o.Spec.Selector.MatchLabels, pod: o.Spec.Template})
		case *corev1.Service:
			services = append(services, o)
		case *corev1.PersistentVolumeClaim:
			claims[o.Name] = o
		}
	}

	// The image and the commands: one placeholder image, built by
	// deploy/Dockerfile, which builds every command a container runs.
	built := dockerfileCommands(t)
	templates := []corev1.PodTemplateSpec{}
	for _, j := range jobs {
		templates = append(templates, j.Spec.Template)
	}
	for _, w := range workloads {
		templates = append(templates, w.pod)
	}
	for _, p := range templates {
		for _, c := range slices.Concat(p.Spec.InitContainers, p.Spec.Containers) {
			if c.Image != image {
				t.Errorf("container %s: image %q, want the placeholder %q", c.Name, c.Image, image)
			}
			if len(c.Command) == 0 || !slices.Contains(built, c.Command[0]) {
				t.Errorf("container %s: command %q is none of the Dockerfile's %q", c.Name, c.Command, built)
			}
		}
	}

	// The volume: ReadWriteMany, since the shards write it from many nodes.
	if len(claims) == 0 {
		t.Fatal("no PersistentVolumeClaim")
	}
	for name, c := range claims {
		if !slices.Contains(c.Spec.AccessModes, corev1.ReadWriteMany) {
			t.Errorf("claim %s: access modes %v, want ReadWriteMany", name, c.Spec.AccessModes)
		}
		if _, ok := c.Spec.Resources.Requests[corev1.ResourceStorage]; !ok {
			t.Errorf("claim %s requests no storage", name)
		}
	}

	evaluate, evalC := jobRunning(t, jobs, "evaluate")
	merge, mergeC := jobRunning(t, jobs, "merge")

	// The evaluate Job: a pod per shard, all at once, a shard re-run on its
	// own index when its pod fails.
	spec := evaluate.Spec
	if spec.CompletionMode == nil || *spec.CompletionMode != batchv1.IndexedCompletion {
		t.Errorf("evaluate Job: completionMode %v, want Indexed", deref(spec.CompletionMode))
	}
	if spec.Completions == nil || spec.Parallelism == nil || *spec.Completions < 1 || *spec.Completions != *spec.Parallelism {
		t.Fatalf("evaluate Job: completions %v, parallelism %v: want them equal, one pod per shard", deref(spec.Completions), deref(spec.Parallelism))
	}
	shards := int(*spec.Completions)
	if spec.BackoffLimitPerIndex == nil || *spec.BackoffLimitPerIndex < 1 {
		t.Errorf("evaluate Job: backoffLimitPerIndex %v, want at least 1 (a dead shard is re-run)", deref(spec.BackoffLimitPerIndex))
	}
	if p := spec.Template.Spec.RestartPolicy; p != corev1.RestartPolicyNever {
		t.Errorf("evaluate Job: restartPolicy %q; backoffLimitPerIndex needs Never", p)
	}
	if v, _ := flagValue(evalC.Args, "shards"); v != strconv.Itoa(shards) {
		t.Errorf("evaluate: -shards %q, want %d (the Job's completions)", v, shards)
	}
	if v, ok := flagValue(evalC.Args, "shard"); ok {
		t.Errorf("evaluate: -shard %q; the shard is the pod's JOB_COMPLETION_INDEX", v)
	}
	parallel := 1
	if v, ok := flagValue(evalC.Args, "parallel"); ok {
		n, err := strconv.Atoi(v)
		if err != nil || n < 1 {
			t.Fatalf("evaluate: -parallel %q", v)
		}
		parallel = n
	}

	// The run directory: evaluate's -out, on the claim, is merge's argument.
	out, ok := flagValue(evalC.Args, "out")
	if !ok {
		t.Fatal("evaluate has no -out")
	}
	evalClaim := claimAt(t, "evaluate", evaluate.Spec.Template.Spec, evalC, out)
	mergeClaim := claimAt(t, "merge", merge.Spec.Template.Spec, mergeC, out)
	if evalClaim != mergeClaim {
		t.Errorf("evaluate writes %s on claim %q, merge reads it on %q", out, evalClaim, mergeClaim)
	}
	if claims[evalClaim] == nil {
		t.Errorf("claim %q is not in pvc.yaml (claims: %v)", evalClaim, slices.Sorted(maps.Keys(claims)))
	}
	if !slices.Equal(mergeC.Args, []string{out}) {
		t.Errorf("merge: args %q, want [%q] (evaluate's -out)", mergeC.Args, out)
	}
	if m := merge.Spec.CompletionMode; m != nil && *m == batchv1.IndexedCompletion {
		t.Error("merge Job is Indexed; it is one pod")
	}
	if c := merge.Spec.Completions; c != nil && *c != 1 {
		t.Errorf("merge Job: completions %d, want 1", *c)
	}
	if p := merge.Spec.Template.Spec.RestartPolicy; p != corev1.RestartPolicyNever && p != corev1.RestartPolicyOnFailure {
		t.Errorf("merge Job: restartPolicy %q", p)
	}

	// Services select the pods of one workload each and reach a port they
	// serve.
	for _, s := range services {
		var selected []workload
		for _, w := range workloads {
			if len(s.Spec.Selector) > 0 && subset(s.Spec.Selector, w.pod.Labels) {
				selected = append(selected, w)
			}
		}
		if len(selected) != 1 {
			t.Errorf("Service %s (selector %v) selects %d workloads' pods, want 1", s.Name, s.Spec.Selector, len(selected))
			continue
		}
		w := selected[0]
		for _, p := range s.Spec.Ports {
			if _, ok := w.containerPort(targetPort(p)); !ok {
				t.Errorf("Service %s: port %d targets %s, which %s %s's pods do not serve", s.Name, p.Port, portString(targetPort(p)), w.kind, w.name)
			}
		}
	}
	for _, w := range workloads {
		if len(w.selector) == 0 || !subset(w.selector, w.pod.Labels) {
			t.Errorf("%s %s: selector %v does not select its pods (labels %v)", w.kind, w.name, w.selector, w.pod.Labels)
		}
		for _, c := range w.pod.Spec.Containers {
			if len(c.Command) > 0 && c.Command[0] == "rtvibot" {
				checkBot(t, w, c)
			}
		}
	}

	// The pools: evaluate resolves each pool's headless Service to its
	// pods, and a pool has a bot for each scenario running at once.
	if !hasFlag(evalC.Args, "resolve") {
		t.Error("evaluate without -resolve: each connection to a pool's Service could reach another bot")
	}
	var pools [2]int
	for i, role := range []string{"agent-url", "user-url"} {
		v, ok := flagValue(evalC.Args, role)
		if !ok {
			t.Errorf("evaluate has no -%s", role)
			continue
		}
		pools[i] = checkPool(t, role, v, workloads, services)
		if pools[i] < shards*parallel {
			t.Errorf("-%s: %d bots for %d shards x -parallel %d", role, pools[i], shards, parallel)
		}
	}
	if pools[0] != pools[1] {
		t.Errorf("the agent pool has %d bots, the user pool %d: want a pair per slot", pools[0], pools[1])
	}
	t.Logf("%d shards x %d at once, pools of %d bots, run directory %s on claim %s", shards, parallel, pools[0], out, evalClaim)
}

// workload is a Deployment, as the checks need it.
type workload struct {
	kind, name string
	replicas   *int32
	selector   map[string]string
	pod        corev1.PodTemplateSpec
}

// containerPort resolves a port by number or name among the pods'
// container ports.
func (w workload) containerPort(p intstr.IntOrString) (int32, bool) {
	for _, c := range w.pod.Spec.Containers {
		for _, cp := range c.Ports {
			if (p.Type == intstr.String && cp.Name == p.StrVal) || (p.Type == intstr.Int && cp.ContainerPort == p.IntVal) {
				return cp.ContainerPort, true
			}
		}
	}
	return 0, false
}

// targetPort is a Service port's target, which defaults to its port.
func targetPort(p corev1.ServicePort) intstr.IntOrString {
	if p.TargetPort.Type == intstr.Int && p.TargetPort.IntVal == 0 {
		return intstr.FromInt32(p.Port)
	}
	return p.TargetPort
}

// checkBot checks an rtvibot container: it listens on all interfaces
// (-remote) at the port the pod declares, and its probes reach that port.
func checkBot(t *testing.T, w workload, c corev1.Container) {
	t.Helper()
	if !hasFlag(c.Args, "remote") {
		t.Errorf("%s %s: rtvibot without -remote serves loopback clients only", w.kind, w.name)
	}
	addr, _ := flagValue(c.Args, "addr")
	_, port, err := net.SplitHostPort(addr)
	if err != nil {
		t.Errorf("%s %s: rtvibot -addr %q: %v", w.kind, w.name, addr, err)
		return
	}
	n, _ := strconv.Atoi(port)
	if _, ok := w.containerPort(intstr.FromInt(n)); !ok {
		t.Errorf("%s %s: rtvibot listens on %s, a port the container does not declare", w.kind, w.name, port)
	}
	for what, p := range map[string]*corev1.Probe{"readiness": c.ReadinessProbe, "liveness": c.LivenessProbe} {
		switch {
		case p == nil:
			t.Errorf("%s %s: no %s probe", w.kind, w.name, what)
		case p.TCPSocket == nil:
			t.Errorf("%s %s: %s probe is not tcpSocket (rtvibot has no HTTP health endpoint)", w.kind, w.name, what)
		default:
			if got, ok := w.containerPort(p.TCPSocket.Port); !ok || got != int32(n) {
				t.Errorf("%s %s: %s probe on %s, not rtvibot's port %d", w.kind, w.name, what, portString(p.TCPSocket.Port), n)
			}
		}
	}
}

// checkPool checks one role's pool URL: ws://<service>:<port>, a
// headless Service (its name resolves to every ready pod's address)
// selecting one Deployment's pods, the port reaching the bots. It returns
// the pool's size, the Deployment's replicas.
func checkPool(t *testing.T, role, raw string, workloads []workload, services []*corev1.Service) int {
	t.Helper()
	u, err := url.Parse(raw)
	if err != nil || u.Scheme != "ws" || u.Port() == "" {
		t.Errorf("-%s: %q is not one ws://host:port", role, raw)
		return 0
	}
	svc := serviceNamed(services, u.Hostname())
	if svc == nil {
		t.Errorf("-%s: %s: no Service %q", role, raw, u.Hostname())
		return 0
	}
	if svc.Spec.ClusterIP != corev1.ClusterIPNone {
		t.Errorf("-%s: Service %s has a cluster IP: want clusterIP None (its name resolves to every pod)", role, svc.Name)
	}
	var pool *workload
	for i, w := range workloads {
		if w.kind == "Deployment" && len(svc.Spec.Selector) > 0 && subset(svc.Spec.Selector, w.pod.Labels) {
			pool = &workloads[i]
		}
	}
	if pool == nil {
		t.Errorf("-%s: Service %s selects no Deployment's pods", role, svc.Name)
		return 0
	}
	port, _ := strconv.Atoi(u.Port())
	found := false
	for _, p := range svc.Spec.Ports {
		if int(p.Port) == port {
			target, ok := pool.containerPort(targetPort(p))
			// A headless Service does no port mapping: a client dials
			// the pod's address at the URL's port.
			found = ok && int(target) == port
		}
	}
	if !found {
		t.Errorf("-%s: %s: port %d is no port of Service %s that the bots serve", role, raw, port, svc.Name)
	}
	if pool.replicas == nil {
		return 1
	}
	return int(*pool.replicas)
}

// jobRunning is the one Job whose container runs command, and that
// container.
func jobRunning(t *testing.T, jobs []*batchv1.Job, command string) (*batchv1.Job, corev1.Container) {
	t.Helper()
	var found []*batchv1.Job
	var container corev1.Container
	for _, j := range jobs {
		for _, c := range j.Spec.Template.Spec.Containers {
			if len(c.Command) > 0 && c.Command[0] == command {
				found = append(found, j)
				container = c
			}
		}
	}
	if len(found) != 1 {
		t.Fatalf("%d Jobs run %s, want 1", len(found), command)
	}
	return found[0], container
}

// claimAt is the claim of the volume container c mounts at the directory
// holding dir.
func claimAt(t *testing.T, what string, pod corev1.PodSpec, c corev1.Container, dir string) string {
	t.Helper()
	for _, m := range c.VolumeMounts {
		if !strings.HasPrefix(dir, strings.TrimSuffix(m.MountPath, "/")+"/") {
			continue
		}
		for _, v := range pod.Volumes {
			if v.Name == m.Name && v.PersistentVolumeClaim != nil {
				return v.PersistentVolumeClaim.ClaimName
			}
		}
		t.Fatalf("%s: volume %q at %s is not a PersistentVolumeClaim", what, m.Name, m.MountPath)
	}
	t.Fatalf("%s: no volume mounted above %s", what, dir)
	return ""
}

// dockerfileCommands are the commands deploy/Dockerfile builds
// (./cmd/<name> arguments of go build).
func dockerfileCommands(t *testing.T) []string {
	t.Helper()
	data, err := os.ReadFile("Dockerfile")
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, m := range regexp.MustCompile(`\./cmd/([a-z]+)\b`).FindAllStringSubmatch(string(data), -1) {
		names = append(names, m[1])
	}
	if len(names) == 0 {
		t.Fatal("Dockerfile builds no ./cmd/... command")
	}
	return names
}

// flagValue is the value of a Go flag in args: -name=v, --name=v or
// -name v.
func flagValue(args []string, name string) (string, bool) {
	for i, a := range args {
		for _, p := range []string{"-" + name, "--" + name} {
			if v, ok := strings.CutPrefix(a, p+"="); ok {
				return v, true
			}
			if a == p && i+1 < len(args) {
				return args[i+1], true
			}
		}
	}
	return "", false
}

// hasFlag reports whether a boolean flag is set in args.
func hasFlag(args []string, name string) bool {
	for _, a := range args {
		if a == "-"+name || a == "--"+name || a == "-"+name+"=true" || a == "--"+name+"=true" {
			return true
		}
	}
	return false
}

func serviceNamed(services []*corev1.Service, name string) *corev1.Service {
	for _, s := range services {
		if s.Name == name {
			return s
		}
	}
	return nil
}

// subset reports whether every label of sel is in labels.
func subset(sel, labels map[string]string) bool {
	for k, v := range sel {
		if labels[k] != v {
			return false
		}
	}
	return true
}

func deref[T any](p *T) any {
	if p == nil {
		return nil
	}
	return *p
}

// The strict decoding refuses what the API server would: unknown,
// misspelt and duplicated fields, an unknown kind, a kind under another
// apiVersion, a value of the wrong type.
func TestDecodingIsStrict(t *testing.T) {
	for name, doc := range map[string]string{
		"unknown field":       "apiVersion: batch/v1\nkind: Job\nspec:\n  completion: 4\n",
		"field case":          "apiVersion: batch/v1\nkind: Job\nspec:\n  Completions: 4\n",
		"duplicate field":     "apiVersion: batch/v1\nkind: Job\nspec:\n  completions: 4\n  completions: 5\n",
		"unknown kind":        "apiVersion: v1\nkind: ConfigMap\n",
		"no kind":             "apiVersion: v1\nmetadata: {name: x}\n",
		"apiVersion":          "apiVersion: extensions/v1beta1\nkind: Deployment\n",
		"wrong type":          "apiVersion: apps/v1\nkind: Deployment\nspec:\n  replicas: many\n",
		"bad quantity":        "apiVersion: v1\nkind: PersistentVolumeClaim\nspec:\n  resources:\n    requests: {storage: ten}\n",
		"nested unknown":      "apiVersion: v1\nkind: Service\nspec:\n  ports:\n    - port: 80\n      targetport: 8080\n",
		"unknown at the root": "apiVersion: v1\nkind: Service\nspecs: {}\n",
	} {
		if obj, err := decodeDocument([]byte(doc)); err == nil {
			t.Errorf("%s: decoded into %T, want an error", name, obj)
		} else {
			t.Logf("%s: %v", name, err)
		}
	}
	obj, err := decodeDocument([]byte("apiVersion: batch/v1\nkind: Job\nspec:\n  completions: 4\n"))
	if j, ok := obj.(*batchv1.Job); err != nil || !ok || *j.Spec.Completions != 4 {
		t.Errorf("a valid Job: %v, %v", obj, err)
	}
	if obj, err := decodeDocument([]byte("# comments only\n")); obj != nil || err != nil {
		t.Errorf("a document of comments: %v, %v; want nothing", obj, err)
	}
}

func portString(p intstr.IntOrString) string { return p.String() }
