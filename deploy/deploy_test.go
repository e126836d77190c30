// Package deploy holds barhub's deployment files; its test renders them
// as kustomize and docker compose would and checks what they say against
// the binary's configuration and metrics.
package deploy

import (
	"net/netip"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"

	"go.yaml.in/yaml/v3"
	"sigs.k8s.io/kustomize/api/krusty"
	"sigs.k8s.io/kustomize/kyaml/filesys"
)

// configNames are the environment variables barhub reads: every
// e.str("NAME"…), getenv("NAME") and the like in cmd/barhub.
func configNames(t *testing.T) map[string]bool {
	t.Helper()
	names := map[string]bool{}
	files, _ := filepath.Glob("../cmd/barhub/*.go")
	re := regexp.MustCompile(`(?:e\.(?:str|dur|num)|getenv)\("([A-Z0-9_]+)"`)
	for _, f := range files {
		if strings.HasSuffix(f, "_test.go") {
			continue
		}
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		for _, m := range re.FindAllSubmatch(b, -1) {
			names[string(m[1])] = true
		}
	}
	if !names["MONGODB_URI"] || !names["BARHUB_METRICS_ADDR"] {
		t.Fatalf("found no configuration names in cmd/barhub: %v", names)
	}
	// Read by the AWS SDK's credential chain rather than by barhub.
	for _, n := range []string{"AWS_ACCESS_KEY_ID", "AWS_SECRET_ACCESS_KEY", "AWS_SESSION_TOKEN"} {
		names[n] = true
	}
	return names
}

// aiSettings are the Bedrock and image settings that have a default in
// cmd/barhub/config.go, with that default. The deployment files state each
// one, so whoever deploys sees what the models are and where to change them.
// An empty default (the endpoint override) means "unset" and is left out.
func aiSettings(t *testing.T) map[string]string {
	t.Helper()
	b, err := os.ReadFile("../cmd/barhub/config.go")
	if err != nil {
		t.Fatal(err)
	}
	settings := map[string]string{}
	re := regexp.MustCompile(`e\.str\("(BARHUB_(?:BEDROCK|IMAGE)_[A-Z0-9_]+)", "([^"]+)"\)`)
	for _, m := range re.FindAllSubmatch(b, -1) {
		settings[string(m[1])] = string(m[2])
	}
	for _, want := range []string{"BARHUB_BEDROCK_MODEL", "BARHUB_IMAGE_MODEL"} {
		if settings[want] == "" {
			t.Fatalf("found no default for %s in cmd/barhub/config.go: %v", want, settings)
		}
	}
	return settings
}

// checkAISettings reports each AI setting that env leaves out or sets to
// something other than barhub's default.
func checkAISettings(t *testing.T, where string, env any, settings map[string]string) {
	t.Helper()
	for name, def := range settings {
		v, ok := get(env, name).(string)
		if !ok {
			t.Errorf("%s does not state %s (default %q)", where, name, def)
		} else if v != def {
			t.Errorf("%s sets %s = %q, want barhub's default %q", where, name, v, def)
		}
	}
}

// metricNames are the barhub_* metrics the Go code registers.
func metricNames(t *testing.T) map[string]bool {
	t.Helper()
	names := map[string]bool{}
	re := regexp.MustCompile(`Name:\s+"(barhub_[a-z_]+)"`)
	filepath.WalkDir("..", func(path string, d os.DirEntry, err error) error {
		if err != nil || d.IsDir() || !strings.HasSuffix(path, ".go") || strings.HasSuffix(path, "_test.go") {
			return nil
		}
		b, _ := os.ReadFile(path)
		for _, m := range re.FindAllSubmatch(b, -1) {
			names[string(m[1])] = true
		}
		return nil
	})
	return names
}

type object = map[string]any

func get(o any, path ...string) any {
	for _, p := range path {
		m, ok := o.(map[string]any)
		if !ok {
			if l, ok := o.([]any); ok {
				i, err := strconv.Atoi(p)
				if err != nil || i >= len(l) {
					return nil
				}
				o = l[i]
				continue
			}
			return nil
		}
		o = m[p]
	}
	return o
}

func str(o any, path ...string) string { s, _ := get(o, path...).(string); return s }

func list(o any, path ...string) []any { l, _ := get(o, path...).([]any); return l }

// render runs kustomize on an overlay, as kubectl apply -k does.
func render(t *testing.T, dir string) map[string]object {
	t.Helper()
	return renderIn(t, filesys.MakeFsOnDisk(), dir)
}

func renderIn(t *testing.T, fs filesys.FileSystem, dir string) map[string]object {
	t.Helper()
	k := krusty.MakeKustomizer(krusty.MakeDefaultOptions())
	res, err := k.Run(fs, dir)
	if err != nil {
		t.Fatalf("kustomize build %s: %v", dir, err)
	}
	out := map[string]object{}
	for _, r := range res.Resources() {
		m, err := r.Map()
		if err != nil {
			t.Fatal(err)
		}
		out[r.GetKind()+"/"+r.GetName()] = m
	}
	return out
}

// mongoMajor is the major version of a mongo image, 0 when it is not one.
func mongoMajor(image string) int {
	name, tag, _ := strings.Cut(image, ":")
	if name != "mongo" {
		return 0
	}
	major, _ := strconv.Atoi(strings.Split(tag, ".")[0])
	return major
}

func TestKustomizeOverlays(t *testing.T) {
	envs := configNames(t)
	ai := aiSettings(t)
	for _, overlay := range []string{"trial", "atlas"} {
		t.Run(overlay, func(t *testing.T) {
			objs := render(t, "k8s/overlays/"+overlay)
			for _, want := range []string{
				"Deployment/barhub", "Deployment/barhub-worker", "Service/barhub", "ConfigMap/barhub",
				"PodDisruptionBudget/barhub", "HorizontalPodAutoscaler/barhub", "Ingress/barhub",
				"NetworkPolicy/barhub-web", "NetworkPolicy/barhub-worker", "NetworkPolicy/barhub-egress",
			} {
				if objs[want] == nil {
					t.Errorf("no %s", want)
				}
			}
			if _, ok := objs["Secret/barhub"]; ok {
				t.Error("the Secret template is applied: it would overwrite the real one")
			}

			for _, name := range []string{"barhub", "barhub-worker"} {
				d := objs["Deployment/"+name]
				c := get(d, "spec", "template", "spec", "containers", "0")
				if img := str(c, "image"); img != "registry.example.com/barhub:latest" {
					t.Errorf("%s image %q", name, img)
				}
				ports := map[string]bool{}
				for _, p := range list(c, "ports") {
					ports[str(p, "name")] = true
				}
				for probe, path := range map[string]string{"readinessProbe": "/readyz", "livenessProbe": "/healthz"} {
					if got := str(c, probe, "httpGet", "path"); got != path {
						t.Errorf("%s %s path %q, want %s", name, probe, got, path)
					}
					if port := str(c, probe, "httpGet", "port"); !ports[port] {
						t.Errorf("%s %s on port %q, which the container does not name", name, probe, port)
					}
				}
				if get(c, "securityContext", "readOnlyRootFilesystem") != true {
					t.Errorf("%s: root filesystem is writable", name)
				}
				secret := get(c, "envFrom", "1", "secretRef", "optional")
				if want := overlay == "trial"; secret != want {
					t.Errorf("%s: Secret optional = %v, want %v", name, secret, want)
				}
			}
			args := list(objs["Deployment/barhub-worker"], "spec", "template", "spec", "containers", "0", "args")
			if len(args) != 1 || args[0] != "worker" {
				t.Errorf("worker args %v", args)
			}
			for key := range get(objs["ConfigMap/barhub"], "data").(map[string]any) {
				if !envs[key] {
					t.Errorf("ConfigMap sets %s, which barhub does not read (cmd/barhub/config.go)", key)
				}
			}
			// Only the cluster knows its ingress controller's addresses:
			// the base trusts nobody, and barhub warns until they are set.
			if v, ok := get(objs["ConfigMap/barhub"], "data").(map[string]any)["BARHUB_TRUSTED_PROXIES"]; !ok || v != "" {
				t.Errorf("BARHUB_TRUSTED_PROXIES = %v, want present and empty (set per cluster)", v)
			}
			checkAISettings(t, "the ConfigMap", get(objs["ConfigMap/barhub"], "data"), ai)
			if str(objs["ConfigMap/barhub"], "data", "BARHUB_NO_WORKER") != "1" {
				t.Error("web replicas run the AI worker too")
			}
			hpa := objs["HorizontalPodAutoscaler/barhub"]
			if str(hpa, "spec", "scaleTargetRef", "name") != "barhub" || get(hpa, "spec", "minReplicas").(int) < 2 {
				t.Errorf("HPA %v", get(hpa, "spec"))
			}
			if get(objs["PodDisruptionBudget/barhub"], "spec", "selector", "matchLabels", "app.kubernetes.io/name") != "barhub" {
				t.Error("the PodDisruptionBudget does not select the web replicas")
			}
			ing := objs["Ingress/barhub"]
			if len(list(ing, "spec", "tls")) == 0 || str(ing, "spec", "tls", "0", "secretName") == "" {
				t.Error("the Ingress has no TLS")
			}
			for _, a := range []string{"proxy-read-timeout", "proxy-send-timeout"} {
				v, _ := strconv.Atoi(str(ing, "metadata", "annotations", "nginx.ingress.kubernetes.io/"+a))
				if v < 3600 {
					t.Errorf("Ingress %s = %d s: live sockets need an hour", a, v)
				}
			}
			if str(ing, "spec", "rules", "0", "http", "paths", "0", "backend", "service", "name") != "barhub" {
				t.Error("the Ingress does not route to the barhub Service")
			}

			switch overlay {
			case "trial":
				for _, name := range []string{"StatefulSet/mongodb", "StatefulSet/redis", "Job/mongodb-init", "Service/mongodb", "Service/redis", "NetworkPolicy/mongodb", "NetworkPolicy/redis"} {
					if objs[name] == nil {
						t.Errorf("no %s", name)
					}
				}
				mongo := get(objs["StatefulSet/mongodb"], "spec", "template", "spec", "containers", "0")
				if mongoMajor(str(mongo, "image")) < 7 || !slices.Contains(list(mongo, "args"), "--replSet") {
					t.Errorf("MongoDB container %v", mongo)
				}
				if n := get(objs["StatefulSet/mongodb"], "spec", "replicas").(int); n != 3 {
					t.Errorf("MongoDB replica set of %d members", n)
				}
				if !strings.Contains(strings.Join(strings.Fields(str(objs["Job/mongodb-init"], "spec", "template", "spec", "containers", "0", "command", "5")), ""), "rs.initiate(") {
					t.Error("mongodb-init does not initiate the replica set")
				}
				uri := str(objs["ConfigMap/barhub"], "data", "MONGODB_URI")
				for _, want := range []string{"replicaSet=rs0", "w=majority", "retryWrites=true", "mongodb-0.mongodb:27017"} {
					if !strings.Contains(uri, want) {
						t.Errorf("MONGODB_URI %q lacks %s", uri, want)
					}
				}
				if str(objs["ConfigMap/barhub"], "data", "REDIS_URL") != "redis://redis:6379/0" {
					t.Error("REDIS_URL does not point at the redis Service")
				}
			case "atlas":
				for name := range objs {
					if strings.HasPrefix(name, "StatefulSet/") {
						t.Errorf("the atlas overlay runs %s", name)
					}
				}
				if _, ok := get(objs["ConfigMap/barhub"], "data").(map[string]any)["MONGODB_URI"]; ok {
					t.Error("the atlas overlay puts MONGODB_URI in a ConfigMap: it holds a password")
				}
			}
		})
	}

	// The Secret template names only variables barhub (or the AWS SDK) reads.
	var secret object
	readYAML(t, "k8s/base/secret.example.yaml", &secret)
	for key := range get(secret, "stringData").(map[string]any) {
		if !envs[key] {
			t.Errorf("secret.example.yaml sets %s, which barhub does not read", key)
		}
	}
}

// trustedProxies parses a BARHUB_TRUSTED_PROXIES value as barhub does, and
// fails on a range wider than barhub accepts without a warning
// (cmd/barhub/proxies.go): a /16, or a /48 for IPv6.
func trustedProxies(t *testing.T, v string) []netip.Prefix {
	t.Helper()
	var out []netip.Prefix
	for _, p := range strings.Split(v, ",") {
		if p = strings.TrimSpace(p); p == "" {
			continue
		}
		if !strings.Contains(p, "/") {
			if a, err := netip.ParseAddr(p); err == nil {
				p = netip.PrefixFrom(a, a.BitLen()).String()
			}
		}
		prefix, err := netip.ParsePrefix(p)
		if err != nil {
			t.Errorf("trusted proxy %q is not an address or CIDR", p)
			continue
		}
		widest := 16
		if prefix.Addr().Is6() {
			widest = 48
		}
		if prefix.Bits() < widest {
			t.Errorf("trusted proxy range %s is wider than /%d: anyone in it can name their own address", prefix, widest)
		}
		out = append(out, prefix.Masked())
	}
	return out
}

// TestTrustedProxiesOverlay applies the patch the README gives for setting
// the ingress controller's addresses on top of an overlay: it renders, and
// sets exactly them.
func TestTrustedProxiesOverlay(t *testing.T) {
	readme, err := os.ReadFile("../README.md")
	if err != nil {
		t.Fatal(err)
	}
	// The README's example, as written there.
	m := regexp.MustCompile("(?s)```yaml\n(  patches:\n.*?BARHUB_TRUSTED_PROXIES.*?)```").FindSubmatch(readme)
	if m == nil {
		t.Fatal("the README has no example patch setting BARHUB_TRUSTED_PROXIES")
	}
	var lines []string
	for _, l := range strings.Split(string(m[1]), "\n") {
		lines = append(lines, strings.TrimPrefix(l, "  "))
	}
	// An overlay of one's own beside the shipped ones, on a copy of them.
	fs := filesys.MakeFsInMemory()
	err = filepath.WalkDir("k8s", func(path string, d os.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		b, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		return fs.WriteFile(path, b)
	})
	if err != nil {
		t.Fatal(err)
	}
	k := "apiVersion: kustomize.config.k8s.io/v1beta1\nkind: Kustomization\nresources:\n  - ../trial\n" + strings.Join(lines, "\n")
	if err := fs.WriteFile("k8s/overlays/ours/kustomization.yaml", []byte(k)); err != nil {
		t.Fatal(err)
	}
	objs := renderIn(t, fs, "k8s/overlays/ours")
	got := trustedProxies(t, str(objs["ConfigMap/barhub"], "data", "BARHUB_TRUSTED_PROXIES"))
	if len(got) == 0 {
		t.Fatalf("the README's patch sets no trusted proxies:\n%s", k)
	}
	if str(objs["ConfigMap/barhub"], "data", "REDIS_URL") == "" {
		t.Error("the patched overlay lost the trial overlay's settings")
	}
}

func readYAML(t *testing.T, path string, out any) {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if err := yaml.Unmarshal(b, out); err != nil {
		t.Fatalf("%s: %v", path, err)
	}
}

func TestCompose(t *testing.T) {
	envs := configNames(t)
	ai := aiSettings(t)
	var c object
	readYAML(t, "compose.yaml", &c)
	services, _ := get(c, "services").(map[string]any)
	var serve, workers []string
	for name, s := range services {
		cmd := list(s, "command")
		img := str(s, "image")
		if img == "barhub:local" {
			if len(cmd) == 1 && cmd[0] == "serve" {
				serve = append(serve, name)
			} else if len(cmd) == 1 && cmd[0] == "worker" {
				workers = append(workers, name)
			} else {
				t.Errorf("%s: barhub with command %v", name, cmd)
			}
			for key := range get(s, "environment").(map[string]any) {
				if !envs[key] {
					t.Errorf("%s sets %s, which barhub does not read (cmd/barhub/config.go)", name, key)
				}
			}
			checkAISettings(t, name, get(s, "environment"), ai)
			// Exactly the load balancer's fixed address is trusted.
			lbAddr := str(services["lb"], "networks", "default", "ipv4_address")
			trusted := trustedProxies(t, str(s, "environment", "BARHUB_TRUSTED_PROXIES"))
			if lbAddr == "" || len(trusted) != 1 || trusted[0] != netip.MustParsePrefix(lbAddr+"/32") {
				t.Errorf("%s trusts %v as proxies, want exactly the load balancer's %s", name, trusted, lbAddr)
			}
			if str(s, "environment", "BARHUB_METRICS_ADDR") == "" {
				t.Errorf("%s serves /metrics on the guests' port", name)
			}
			if str(s, "depends_on", "mongo-init", "condition") != "service_completed_successfully" {
				t.Errorf("%s starts before the replica set is initiated", name)
			}
			uri := str(s, "environment", "MONGODB_URI")
			if !strings.Contains(uri, "replicaSet=rs0") || !strings.Contains(uri, "w=majority") {
				t.Errorf("%s: MONGODB_URI %q", name, uri)
			}
		}
		if mongoMajor(img) > 0 && name != "mongo-init" {
			if mongoMajor(img) < 7 || !slices.Contains(cmd, "--replSet") {
				t.Errorf("%s: %s %v, want mongo:7 or newer in a replica set", name, img, cmd)
			}
		}
	}
	slices.Sort(serve)
	if len(serve) < 2 || len(workers) != 1 {
		t.Fatalf("serve instances %v, workers %v: want two or more and one", serve, workers)
	}
	if workerNoWorker := str(services[workers[0]], "environment", "BARHUB_NO_WORKER"); workerNoWorker != "" {
		t.Errorf("the worker has BARHUB_NO_WORKER=%q", workerNoWorker)
	}
	init := services["mongo-init"]
	if str(init, "restart") != "no" || !strings.Contains(strings.Join(strings.Fields(str(init, "command", "5")), ""), "rs.initiate(") {
		t.Errorf("mongo-init is not a one-shot that initiates the replica set: %v", init)
	}
	if !strings.HasPrefix(str(services["redis"], "image"), "redis:") {
		t.Error("no Redis")
	}
	nginx, err := os.ReadFile("nginx.conf")
	if err != nil {
		t.Fatal(err)
	}
	for _, s := range serve {
		if !strings.Contains(string(nginx), "server "+s+":8080") {
			t.Errorf("the load balancer does not send to %s", s)
		}
	}
	if !strings.Contains(str(services["lb"], "image"), "nginx") {
		t.Error("no load balancer")
	}
}

// The alert rules and the dashboard use metrics barhub has, and every
// Prometheus target is a compose service.
func TestMonitoring(t *testing.T) {
	metrics := metricNames(t)
	metrics["barhub_dependency_up"] = true // registered in cmd/barhub with a label
	used := regexp.MustCompile(`barhub_[a-z_]+`)
	check := func(file, text string) {
		for _, m := range used.FindAllString(text, -1) {
			base := strings.TrimSuffix(strings.TrimSuffix(strings.TrimSuffix(m, "_bucket"), "_count"), "_sum")
			if !metrics[base] {
				t.Errorf("%s uses %s, which barhub does not export", file, m)
			}
		}
	}
	var rules struct {
		Groups []struct {
			Rules []struct {
				Alert, Expr string
			}
		}
	}
	readYAML(t, "monitoring/alerts.yml", &rules)
	var names []string
	for _, g := range rules.Groups {
		for _, r := range g.Rules {
			names = append(names, r.Alert)
			check("alerts.yml", r.Expr)
		}
	}
	for _, want := range []string{"BarhubHighErrorRate", "BarhubSlowRequests", "BarhubDeadJobs", "BarhubSlowConsumerCuts", "BarhubRedisDown"} {
		if !slices.Contains(names, want) {
			t.Errorf("no alert rule %s", want)
		}
	}
	dash, err := os.ReadFile("monitoring/grafana-dashboard.json")
	if err != nil {
		t.Fatal(err)
	}
	var d struct {
		Panels []struct {
			Targets []struct{ Expr string }
		}
	}
	if err := yaml.Unmarshal(dash, &d); err != nil || len(d.Panels) < 8 {
		t.Fatalf("dashboard: %v, %d panels", err, len(d.Panels))
	}
	for _, p := range d.Panels {
		for _, tg := range p.Targets {
			check("grafana-dashboard.json", tg.Expr)
		}
	}
	var prom object
	readYAML(t, "monitoring/prometheus.yml", &prom)
	var c object
	readYAML(t, "compose.yaml", &c)
	for _, sc := range list(prom, "scrape_configs") {
		for _, target := range list(sc, "static_configs", "0", "targets") {
			host, _, _ := strings.Cut(target.(string), ":")
			if get(c, "services", host) == nil {
				t.Errorf("Prometheus scrapes %s, which compose does not run", target)
			}
		}
	}
}
