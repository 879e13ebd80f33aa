#!/usr/bin/env bash
# Helm and kubeconform for checking deploy/helm/devtrail (docs/operations.md#helm-chart).
# Both are built from the Go module proxy at pinned versions, and the Kubernetes JSON schemas
# kubeconform validates against come from the kubernetes-validate package on PyPI (its bundled
# schemas): no other download is needed. They are kept in the machine's cache (common.sh), per
# set of versions, and linked from .devtrail/tools/bin and .devtrail/tools/k8s-schemas, so a
# clean clone on a machine that built them once only links them.
#
#   deploy/scripts/k8s-tools.sh install   build/fetch what is missing (needs the internet)
#   deploy/scripts/k8s-tools.sh check     helm lint, helm template (default and full values), kubeconform
DT_NAME=k8s-tools
# shellcheck source=common.sh
. "$(dirname "${BASH_SOURCE[0]}")/common.sh"

HELM_VERSION=v3.22.0
KUBECONFORM_VERSION=v0.8.0
KUBERNETES_VALIDATE_VERSION=1.37.0
SCHEMA_FORMAT=3 # bump when the unpacking below changes
# The Kubernetes version the chart is validated for (its oldest supported minor is in Chart.yaml).
K8S_SCHEMA_VERSION=1.33.0

TOOLS="$DT_STATE/tools"
BIN="$TOOLS/bin"
SCHEMAS="$TOOLS/k8s-schemas"
CHART="$DT_ROOT/deploy/helm/devtrail"

have_versions() {
  [ -x "$BIN/helm" ] && [ -x "$BIN/kubeconform" ] &&
    [ "$(cat "$TOOLS/versions" 2>/dev/null)" = "$HELM_VERSION $KUBECONFORM_VERSION $KUBERNETES_VALIDATE_VERSION $SCHEMA_FORMAT" ] &&
    [ -f "$SCHEMAS/v$K8S_SCHEMA_VERSION-local-strict/deployment-apps-v1.json" ]
}

# link_cached: .devtrail/tools/{bin,k8s-schemas,versions} from the machine's cache of these versions.
CACHE="$DT_MACHINE_CACHE/k8s-tools-$(echo "$HELM_VERSION $KUBECONFORM_VERSION $KUBERNETES_VALIDATE_VERSION $SCHEMA_FORMAT" | sha1sum | cut -c1-12)"
link_cached() {
  mkdir -p "$TOOLS"
  for part in bin k8s-schemas; do
    [ "$(readlink "$TOOLS/$part" 2>/dev/null)" = "$CACHE/$part" ] || { rm -rf "${TOOLS:?}/$part"; ln -s "$CACHE/$part" "$TOOLS/$part"; }
  done
  cp "$CACHE/versions" "$TOOLS/versions" 2>/dev/null || rm -f "$TOOLS/versions"
}

cmd_install() {
  if have_versions; then say "helm $HELM_VERSION, kubeconform $KUBECONFORM_VERSION, schemas $K8S_SCHEMA_VERSION: present"; return 0; fi
  mkdir -p "$CACHE"
  exec 8>"$CACHE.lock"
  flock -w 600 8 || die "another install holds $CACHE"
  link_cached
  if have_versions; then say "helm $HELM_VERSION, kubeconform $KUBECONFORM_VERSION, schemas $K8S_SCHEMA_VERSION: linked from ${CACHE}"; return 0; fi
  command -v go >/dev/null || die "go is needed to build helm and kubeconform (apt-get install golang-go, or Go from go.dev)"
  local t0
  t0=$(now_ms)
  mkdir -p "$CACHE/bin" "$CACHE/k8s-schemas"
  # -trimpath and a private build cache: the build does not depend on what else is on the machine.
  # `go version -m` tells which module version a binary was built from: rebuilt only when it differs.
  built() { go version -m "$1" 2>/dev/null | grep -q "mod[[:space:]]$2[[:space:]]$3"; }
  built "$CACHE/bin/helm" helm.sh/helm/v3 "$HELM_VERSION" ||
    GOBIN="$CACHE/bin" GOFLAGS=-mod=mod CGO_ENABLED=0 nice go install -trimpath "helm.sh/helm/v3/cmd/helm@$HELM_VERSION"
  built "$CACHE/bin/kubeconform" github.com/yannh/kubeconform "$KUBECONFORM_VERSION" ||
    GOBIN="$CACHE/bin" GOFLAGS=-mod=mod CGO_ENABLED=0 nice go install -trimpath "github.com/yannh/kubeconform/cmd/kubeconform@$KUBECONFORM_VERSION"
  local wheel_dir="$CACHE/wheel"
  rm -rf "$wheel_dir" && mkdir -p "$wheel_dir"
  python3 -m pip download --quiet --no-deps --dest "$wheel_dir" "kubernetes-validate==$KUBERNETES_VALIDATE_VERSION"
  rm -rf "$CACHE/k8s-schemas" && mkdir -p "$CACHE/k8s-schemas"
  python3 - "$wheel_dir"/kubernetes_validate-*.whl "$CACHE/k8s-schemas" "v$K8S_SCHEMA_VERSION-local-strict" <<'PY'
import sys, zipfile, os, json
wheel, dest, folder = sys.argv[1:4]
prefix = f"kubernetes_validate/kubernetes-json-schema/{folder}/"
with zipfile.ZipFile(wheel) as z:
    names = [n for n in z.namelist() if n.startswith(prefix) and n.endswith(".json")]
    if not names: sys.exit(f"no schemas for {folder} in {wheel}")
    os.makedirs(os.path.join(dest, folder), exist_ok=True)
    for n in names:
        # The schemas name each other by URL ($id https://kubernetes.io/api/..., $ref /api/_definitions.json);
        # kubeconform reads them from files, so the references become relative file names.
        schema = json.loads(z.read(n).decode().replace('"/api/_definitions.json#', '"_definitions.json#'))
        schema.pop("$id", None)
        with open(os.path.join(dest, folder, n[len(prefix):]), "w") as f: json.dump(schema, f)
PY
  rm -rf "$wheel_dir"
  echo "$HELM_VERSION $KUBECONFORM_VERSION $KUBERNETES_VALIDATE_VERSION $SCHEMA_FORMAT" >"$CACHE/versions"
  link_cached
  say "installed helm $HELM_VERSION, kubeconform $KUBECONFORM_VERSION, Kubernetes $K8S_SCHEMA_VERSION schemas in $(elapsed "$t0")"
}

cmd_check() {
  have_versions || die "helm/kubeconform missing: run 'deploy/scripts/k8s-tools.sh install' (make install does)"
  local out="$TOOLS/rendered" values
  rm -rf "$out" && mkdir -p "$out"
  export HELM_CACHE_HOME="$TOOLS/helm-cache" HELM_CONFIG_HOME="$TOOLS/helm-config" HELM_DATA_HOME="$TOOLS/helm-data"
  "$BIN/helm" lint --strict "$CHART"
  "$BIN/helm" lint --strict "$CHART" -f "$CHART/ci/full-values.yaml"
  for values in default full; do
    local args=()
    [ "$values" = full ] && args=(-f "$CHART/ci/full-values.yaml")
    "$BIN/helm" template devtrail "$CHART" --namespace devtrail --kube-version "$K8S_SCHEMA_VERSION" "${args[@]}" >"$out/$values.yaml"
    "$BIN/kubeconform" -strict -summary -kubernetes-version "$K8S_SCHEMA_VERSION" \
      -schema-location "$SCHEMAS/{{ .NormalizedKubernetesVersion }}-local{{ .StrictSuffix }}/{{ .ResourceKind }}{{ .KindSuffix }}.json" \
      "$out/$values.yaml"
  done
}

case "${1:-}" in
  install) cmd_install ;;
  check) cmd_check ;;
  *) echo "usage: $0 install|check" >&2; exit 2 ;;
esac
