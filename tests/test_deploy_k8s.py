"""The Kubernetes base in deploy/k8s, validated offline.

Every resource kustomization.yaml lists is rendered the way kustomize would (namespace, labels,
image tag) and validated against the Kubernetes JSON schemas shipped by `kubernetes-validate`
(strict: unknown fields fail), at the oldest version with GA gRPC probes and at the newest the
package ships. The ServiceMonitor CRD is validated against a vendored schema. Then the
cross-resource facts no schema can see: selectors match the pods, probes name the server's health
services, the shutdown budget covers preStop plus the server's grace, the HPA's custom metric is
the one the adapter rule produces from a series the server exports.
"""

from __future__ import annotations

import copy
import json
import re
from pathlib import Path

import jsonschema
import pytest
import yaml

kubernetes_validate = pytest.importorskip("kubernetes_validate", reason="dev extra kubernetes-validate not installed")

ROOT = Path(__file__).resolve().parent.parent
K8S = ROOT / "deploy" / "k8s"
# The pod's appArmorProfile field (GA in 1.30; native gRPC probes are GA since 1.27) and the newest
# schemas kubernetes-validate ships.
VERSIONS = ["1.30.0", kubernetes_validate.utils.latest_version()]
DOCKER_OVERLAY = ROOT / "deploy" / "k8s-docker-socket"
CLUSTER_SCOPED = {"Namespace"}
CRD_SCHEMAS = {("monitoring.coreos.com/v1", "ServiceMonitor"): K8S / "schemas" / "servicemonitor-monitoring-v1.json"}


def render(kustomization_dir: Path = K8S) -> list[dict]:
    """The resources of a kustomization with the transforms this base uses applied.

    kustomize itself cannot be installed here; an unsupported field fails loudly instead of being
    ignored, so the base cannot silently grow a transform this test does not model.
    """
    kust = yaml.safe_load((kustomization_dir / "kustomization.yaml").read_text())
    supported = {"apiVersion", "kind", "namespace", "labels", "resources", "images", "patches"}
    assert set(kust) <= supported, f"kustomization fields not modelled by this test: {set(kust) - supported}"
    docs: list[dict] = []
    for name in kust["resources"]:
        if (kustomization_dir / name).is_dir():  # an overlay's base, rendered with its own transforms
            docs += render((kustomization_dir / name).resolve())
            continue
        docs += [d for d in yaml.safe_load_all((kustomization_dir / name).read_text()) if d]
    for patch in kust.get("patches", []):
        assert set(patch) == {"path"}, "only strategic-merge patch files are modelled"
        change = yaml.safe_load((kustomization_dir / patch["path"]).read_text())
        (target,) = [d for d in docs if d["kind"] == change["kind"] and d["metadata"]["name"] == change["metadata"]["name"]]
        _merge(target, change)
    for doc in docs:
        meta = doc.setdefault("metadata", {})
        if kust.get("namespace") and doc["kind"] not in CLUSTER_SCOPED:
            meta["namespace"] = kust["namespace"]
        if doc["kind"] == "Namespace" and kust.get("namespace"):
            meta["name"] = kust["namespace"]
        for entry in kust.get("labels", []):
            assert not entry.get("includeSelectors"), "selector labels are not modelled"
            meta.setdefault("labels", {}).update(entry["pairs"])
        for pod in _pod_specs(doc):
            for container in pod.get("containers", []) + pod.get("initContainers", []):
                for image in kust.get("images", []):
                    if container["image"].split(":")[0] == image["name"]:
                        container["image"] = f"{image.get('newName', image['name'])}:{image['newTag']}"
    return docs


def _merge(into: dict, change: dict) -> None:
    """Strategic merge as kustomize does it for these fields: maps merge, lists of named items
    merge by name (new names are appended), anything else is replaced."""
    for key, value in change.items():
        old = into.get(key)
        if isinstance(old, dict) and isinstance(value, dict):
            _merge(old, value)
        elif isinstance(old, list) and value and all(isinstance(v, dict) and "name" in v for v in old + value):
            named = {item["name"]: item for item in old}
            for item in value:
                if item["name"] in named:
                    _merge(named[item["name"]], item)
                else:
                    old.append(item)
        else:
            into[key] = value


def _pod_specs(doc: dict) -> list[dict]:
    template = doc.get("spec", {}).get("template", {})
    return [template["spec"]] if "spec" in template else []


def validate(doc: dict, version: str) -> None:
    """Raise when `doc` breaks its schema: CRDs against the vendored one, the rest Kubernetes'."""
    crd = CRD_SCHEMAS.get((doc["apiVersion"], doc["kind"]))
    if crd:
        jsonschema.validate(doc, json.loads(crd.read_text()))
    else:
        kubernetes_validate.validate(doc, version, strict=True)


def by_kind(docs: list[dict], kind: str) -> list[dict]:
    return [d for d in docs if d["kind"] == kind]


@pytest.fixture(scope="module")
def docs() -> list[dict]:
    return render()


@pytest.fixture(scope="module")
def deployment(docs) -> dict:
    (dep,) = by_kind(docs, "Deployment")
    return dep


def _container(deployment: dict) -> dict:
    return deployment["spec"]["template"]["spec"]["containers"][0]


def _env(deployment: dict) -> dict[str, str]:
    return {e["name"]: e.get("value") for e in _container(deployment).get("env", [])}


@pytest.mark.parametrize("version", VERSIONS)
def test_every_resource_matches_the_kubernetes_schema(docs, version):
    kinds = set()
    for doc in docs:
        validate(doc, version)
        kinds.add(doc["kind"])
    assert {"Deployment", "Service", "HorizontalPodAutoscaler", "PodDisruptionBudget",
            "NetworkPolicy", "ServiceMonitor"} <= kinds


def test_every_manifest_file_is_listed_in_the_kustomization():
    listed = set(yaml.safe_load((K8S / "kustomization.yaml").read_text())["resources"])
    on_disk = {p.name for p in K8S.glob("*.yaml")} - {"kustomization.yaml"}
    assert on_disk == listed


@pytest.mark.parametrize("mutate, why", [
    (lambda d: _container(d)["readinessProbe"]["grpc"].update(port="grpc"), "grpc probe port must be an integer"),
    (lambda d: _container(d).update(imagePullPolcy="Always"), "typo in a field name"),
    (lambda d: d["spec"].update(replicas="two"), "wrong type"),
    (lambda d: d["spec"].pop("selector"), "missing required field"),
])
def test_the_validator_rejects_broken_manifests(deployment, mutate, why):
    broken = copy.deepcopy(deployment)
    mutate(broken)
    with pytest.raises((kubernetes_validate.ValidationError, jsonschema.ValidationError)):
        validate(broken, VERSIONS[-1])


def test_the_vendored_servicemonitor_schema_rejects_a_typo(docs):
    (monitor,) = by_kind(docs, "ServiceMonitor")
    broken = copy.deepcopy(monitor)
    broken["spec"]["endpoints"][0]["intervall"] = "15s"
    with pytest.raises(jsonschema.ValidationError):
        validate(broken, VERSIONS[-1])


def test_selectors_reach_the_pods(docs, deployment):
    pod_labels = deployment["spec"]["template"]["metadata"]["labels"]
    assert deployment["spec"]["selector"]["matchLabels"].items() <= pod_labels.items()
    for doc in by_kind(docs, "Service"):
        assert doc["spec"]["selector"].items() <= pod_labels.items(), doc["metadata"]["name"]
    for kind in ("PodDisruptionBudget",):
        for doc in by_kind(docs, kind):
            assert doc["spec"]["selector"]["matchLabels"].items() <= pod_labels.items()
    for doc in by_kind(docs, "NetworkPolicy"):
        assert doc["spec"]["podSelector"]["matchLabels"].items() <= pod_labels.items()
    (hpa,) = by_kind(docs, "HorizontalPodAutoscaler")
    assert hpa["spec"]["scaleTargetRef"] == {"apiVersion": "apps/v1", "kind": "Deployment",
                                             "name": deployment["metadata"]["name"]}


def test_headless_service_serves_client_side_round_robin(docs):
    headless = [s for s in by_kind(docs, "Service") if s["spec"].get("clusterIP") == "None"]
    assert len(headless) == 1
    (port,) = headless[0]["spec"]["ports"]
    assert port["name"] == "grpc" and port["appProtocol"] == "grpc" and port["port"] == 50051


def test_probes_use_native_grpc_health_with_the_servers_service_names(deployment):
    container = _container(deployment)
    grpc_port = next(p["containerPort"] for p in container["ports"] if p["name"] == "grpc")
    assert str(grpc_port) == _env(deployment)["VERIFIER_PORT"]
    probes = {name: container[name]["grpc"] for name in ("startupProbe", "readinessProbe", "livenessProbe")}
    assert all(p["port"] == grpc_port for p in probes.values())
    # Readiness: math pool up and not draining. Liveness: the process answers (a liveness failure
    # restarts the pod and drops in-flight work, so it must not follow readiness).
    assert probes["readinessProbe"]["service"] == "verifier.v1.Verifier"
    assert probes["livenessProbe"]["service"] == ""
    assert container["livenessProbe"]["failureThreshold"] * container["livenessProbe"]["periodSeconds"] >= 30


def test_shutdown_budget_lets_in_flight_batches_finish(deployment):
    pod = deployment["spec"]["template"]["spec"]
    command = _container(deployment)["lifecycle"]["preStop"]["exec"]["command"]
    assert command[0] == "sleep"
    pre_stop_s = float(command[1])
    grace_s = float(_env(deployment)["VERIFIER_GRACE_S"])
    assert pod["terminationGracePeriodSeconds"] >= pre_stop_s + grace_s + 10
    strategy = deployment["spec"]["strategy"]["rollingUpdate"]
    assert strategy["maxUnavailable"] == 0


def test_pod_runs_non_root_with_the_images_uid(deployment):
    pod = deployment["spec"]["template"]["spec"]
    container = _container(deployment)
    dockerfile = (ROOT / "deploy" / "Dockerfile").read_text()
    uid = re.search(r"^USER (\d+):(\d+)$", dockerfile, re.M)
    assert uid and pod["securityContext"]["runAsUser"] == int(uid.group(1))
    assert pod["securityContext"]["runAsNonRoot"] is True
    assert container["securityContext"]["allowPrivilegeEscalation"] is False
    assert container["securityContext"]["readOnlyRootFilesystem"] is True
    assert container["securityContext"]["capabilities"]["drop"] == ["ALL"]
    assert pod["automountServiceAccountToken"] is False
    resources = container["resources"]
    assert resources["requests"]["cpu"] == resources["limits"]["cpu"], "Guaranteed QoS: pool size = CPU limit"


def test_env_names_are_server_config_fields(deployment):
    from verifier.config import flat_fields

    fields = {f.env for f in flat_fields()}  # nested sandbox settings flattened: VERIFIER_SANDBOX_POOL_NAME
    names = {n for n in _env(deployment) if n.startswith("VERIFIER_")}
    assert names <= fields, names - fields


def test_hpa_scales_on_cpu_and_on_the_adapters_queue_wait_metric(docs):
    (hpa,) = by_kind(docs, "HorizontalPodAutoscaler")
    metrics = hpa["spec"]["metrics"]
    assert any(m["type"] == "Resource" and m["resource"]["name"] == "cpu" for m in metrics)
    custom = [m["pods"]["metric"]["name"] for m in metrics if m["type"] == "Pods"]
    adapter = yaml.safe_load((K8S / "addons" / "prometheus-adapter-rules.yaml").read_text())
    produced = {r["name"]["as"]: r for r in adapter["rules"]["custom"]}
    assert custom and set(custom) <= set(produced)
    for rule in produced.values():
        series = re.match(r"(\w+)\{", rule["seriesQuery"]).group(1)
        assert series.startswith("verifier_item_queue_seconds")
        assert re.match(rule["name"]["matches"], series)
    assert hpa["spec"]["minReplicas"] >= 2
    assert hpa["spec"]["behavior"]["scaleDown"]["stabilizationWindowSeconds"] >= 300


def test_the_server_exports_the_series_the_adapter_reads():
    from prometheus_client import generate_latest

    from verifier.metrics import Metrics

    metrics = Metrics()
    metrics.queue_seconds.labels("math").observe(0.5)
    text = generate_latest(metrics.registry).decode()
    assert 'verifier_item_queue_seconds_bucket{kind="math",le="1.0"} 1.0' in text
    assert 'verifier_item_queue_seconds_count{kind="math"} 1.0' in text


def test_servicemonitor_and_networkpolicy_name_real_ports(docs, deployment):
    container_ports = {p["name"] for p in _container(deployment)["ports"]}
    (monitor,) = by_kind(docs, "ServiceMonitor")
    selected = [s for s in by_kind(docs, "Service")
                if monitor["spec"]["selector"]["matchLabels"].items() <= s["metadata"].get("labels", {}).items()]
    assert len(selected) == 1, "exactly one Service is scraped (the headless one would double count)"
    service_ports = {p["name"] for p in selected[0]["spec"]["ports"]}
    assert {e["port"] for e in monitor["spec"]["endpoints"]} <= service_ports
    (policy,) = by_kind(docs, "NetworkPolicy")
    for rule in policy["spec"]["ingress"]:
        assert {p["port"] for p in rule["ports"]} <= container_ports
    own = policy["spec"]["podSelector"]
    # only to the other replicas, for forwarded session calls, and to the cluster DNS (VERIFIER_PEER_SERVICE)
    peers, dns = policy["spec"]["egress"]
    assert peers["to"] == [{"podSelector": own}] and {p["port"] for p in peers["ports"]} == {"grpc", "http"}
    assert dns["to"] == [{"namespaceSelector": {"matchLabels": {"kubernetes.io/metadata.name": "kube-system"}},
                          "podSelector": {"matchLabels": {"k8s-app": "kube-dns"}}}]
    assert sorted((p["port"], p["protocol"]) for p in dns["ports"]) == [(53, "TCP"), (53, "UDP")]


def test_replicas_forward_session_calls_only_to_peers_they_found_with_a_route_secret(docs, deployment):
    """docs/sessions.md "Sessions": each pod advertises its own IP on its gRPC port, finds its peers
    through the headless Service (VERIFIER_PEER_SERVICE: the Service that exists, selects these pods
    and serves that port), and reads the route secret from a Secret every pod mounts, one that is not
    the clients' token Secret; the server reads these settings as they are written here."""
    from verifier.config import ServerConfig

    env = _env(deployment)
    (headless,) = [s for s in by_kind(docs, "Service") if s["spec"].get("clusterIP") == "None"]
    assert env["VERIFIER_PEER_SERVICE"] == headless["metadata"]["name"]
    assert headless["spec"]["selector"].items() <= deployment["spec"]["template"]["metadata"]["labels"].items()
    assert env["VERIFIER_ADVERTISE_ADDRESS"] == f"$(POD_IP):{env['VERIFIER_PORT']}"
    names = [e["name"] for e in _container(deployment)["env"]]
    assert names.index("POD_IP") < names.index("VERIFIER_ADVERTISE_ADDRESS")  # $(VAR) expands earlier entries only
    (pod_ip,) = [e for e in _container(deployment)["env"] if e["name"] == "POD_IP"]
    assert pod_ip["valueFrom"] == {"fieldRef": {"fieldPath": "status.podIP"}}
    config = ServerConfig.from_env({k: v.replace("$(POD_IP)", "10.1.2.3") for k, v in env.items()
                                    if k.startswith("VERIFIER_") and v is not None})
    assert config.peer_service == "grpo-verifier-headless" and config.advertise_address == "10.1.2.3:50051"
    mounts = {m["mountPath"]: m["name"] for m in _container(deployment)["volumeMounts"]}
    directory, _, key = config.route_secret_file.rpartition("/")
    volumes = {v["name"]: v for v in deployment["spec"]["template"]["spec"]["volumes"]}
    secret = volumes[mounts[directory]]["secret"]
    assert secret["secretName"] == "grpo-verifier-route-secret" and "items" not in secret and key == "route-secret"
    assert secret["secretName"] != volumes[mounts[config.token_file.rpartition("/")[0]]]["secret"]["secretName"]


def test_the_base_grades_code_without_docker_or_privileges(deployment):
    """Issue 19: gVisor by default; nothing of the node's, no privilege, no added capability. runsc
    needs exactly seccomp and AppArmor unconfined and an unmasked /proc (with user namespaces)."""
    pod = deployment["spec"]["template"]["spec"]
    container = _container(deployment)
    text = json.dumps(deployment)
    assert "docker" not in text.lower() and "hostPath" not in text
    assert _env(deployment)["VERIFIER_SANDBOX_BACKEND"] == "gvisor"
    assert _env(deployment)["VERIFIER_SANDBOX_ROOTFS_DIR"].startswith("/")
    sc = container["securityContext"]
    assert not sc.get("privileged") and sc["allowPrivilegeEscalation"] is False
    assert sc["capabilities"] == {"drop": ["ALL"]} and sc["procMount"] == "Unmasked"
    assert pod["hostUsers"] is False  # Kubernetes allows an unmasked /proc only in a user namespace
    assert pod["securityContext"]["seccompProfile"] == {"type": "Unconfined"}
    assert pod["securityContext"]["appArmorProfile"] == {"type": "Unconfined"}
    assert not any(pod.get(k) for k in ("hostNetwork", "hostPID", "hostIPC", "nodeSelector"))


def test_the_image_is_the_one_make_image_builds(deployment):
    """deploy/build_offline.sh tags `grpo-verifier:<version in pyproject.toml>`; the base names that
    tag, in its kustomization only (one home: the overlay and the compose file run the same)."""
    import tomllib

    version = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]["version"]
    assert _container(deployment)["image"] == f"grpo-verifier:{version}"
    assert 'TAG="${TAG:-grpo-verifier:${VERSION:-dev}}"' in (ROOT / "deploy" / "build_offline.sh").read_text()
    assert "images" not in yaml.safe_load((DOCKER_OVERLAY / "kustomization.yaml").read_text())
    compose = yaml.safe_load((ROOT / "deploy" / "compose.yaml").read_text())
    assert compose["services"]["verifier"]["image"] == f"grpo-verifier:{version}"


@pytest.fixture(scope="module")
def docker_overlay() -> list[dict]:
    return render(DOCKER_OVERLAY)


@pytest.mark.parametrize("version", VERSIONS)
def test_the_docker_socket_overlay_matches_the_schema(docker_overlay, version):
    for doc in docker_overlay:
        validate(doc, version)


def test_the_docker_socket_overlay_uses_the_nodes_daemon(docker_overlay, deployment):
    (dep,) = by_kind(docker_overlay, "Deployment")
    pod, container = dep["spec"]["template"]["spec"], _container(dep)
    assert _env(dep)["VERIFIER_SANDBOX_BACKEND"] == "docker"
    assert {"name": "docker-sock", "mountPath": "/var/run/docker.sock"} in container["volumeMounts"]
    assert {"name": "docker-sock", "hostPath": {"path": "/var/run/docker.sock", "type": "Socket"}} in pod["volumes"]
    assert pod["securityContext"]["seccompProfile"] == {"type": "RuntimeDefault"} and pod["hostUsers"] is True
    assert pod["nodeSelector"] == {"grpo-verifier.io/sandbox": "true"}
    # one image for both: the one `make image` builds
    assert container["image"] == _container(deployment)["image"]
    # everything else is the base's: the same probes, limits and the other env settings
    assert container["readinessProbe"] == _container(deployment)["readinessProbe"]
    changed = ("VERIFIER_SANDBOX_BACKEND", "DOCKER_HOST")
    assert {k: v for k, v in _env(dep).items() if k not in changed} == {k: v for k, v in _env(deployment).items() if k not in changed}
    assert len(docker_overlay) == len(render())


def test_the_strategic_merge_model_agrees_with_kubectl(docker_overlay):
    """Where kubectl (with its built-in kustomize) is installed, our rendering of the overlay is its."""
    import shutil
    import subprocess
    if not shutil.which("kubectl"):
        pytest.skip("kubectl is not installed: the model above stands alone")
    out = subprocess.run(["kubectl", "kustomize", str(DOCKER_OVERLAY)], capture_output=True, text=True, timeout=60)
    assert out.returncode == 0, out.stderr
    (theirs,) = [d for d in yaml.safe_load_all(out.stdout) if d and d["kind"] == "Deployment"]
    (ours,) = by_kind(docker_overlay, "Deployment")
    assert _by_name(theirs["spec"]["template"]) == _by_name(ours["spec"]["template"])


def _by_name(value):
    """Lists of named items as maps: kustomize puts a patch's new items first, we append them."""
    if isinstance(value, dict):
        return {k: _by_name(v) for k, v in value.items()}
    if isinstance(value, list) and value and all(isinstance(v, dict) and "name" in v for v in value):
        return {v["name"]: _by_name(v) for v in value}
    return [_by_name(v) for v in value] if isinstance(value, list) else value
