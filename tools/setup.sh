#!/usr/bin/env bash
# Installs what building and testing Ember needs, on Debian 12 (or later).
#
#   1. System packages: compilers and build tools, gRPC and protobuf, ccache,
#      clang-format/clang-tidy, GoogleTest, a Java runtime for the Spark
#      oracle. Only the missing ones are installed.
#   2. The Python environment .venv with the pins of requirements.txt, and the
#      unversioned libarrow.so/libparquet.so links in the pyarrow wheel.
#   3. Unless EMBER_CUDA=off, and only where no CUDA toolkit is installed: the
#      CUDA compiler wheels of requirements-cuda.txt, exposed as .venv/cuda.
#
# Idempotent and quick when everything is in place (a few checks, no network).
#
# Environment:
#   EMBER_CUDA=auto|off   whether to provide a CUDA compiler (default auto)
#   EMBER_SETUP_APT=0     skip the system packages (no root, or done already)
#   PYTHON=python3        interpreter used to create .venv

set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
VENV="$ROOT/.venv"
PYTHON="${PYTHON:-python3}"
EMBER_CUDA="${EMBER_CUDA:-auto}"
EMBER_SETUP_APT="${EMBER_SETUP_APT:-1}"

log() { printf 'setup: %s\n' "$*" >&2; }
die() { printf 'setup: error: %s\n' "$*" >&2; exit 1; }

case "$EMBER_CUDA" in
  auto | off) ;;
  *) die "EMBER_CUDA must be 'auto' or 'off', not '$EMBER_CUDA'" ;;
esac

# ---------------------------------------------------------------- 1. system
APT_PACKAGES=(
  g++ cmake ninja-build make pkg-config git ccache
  libgrpc++-dev protobuf-compiler-grpc libprotobuf-dev protobuf-compiler
  libgtest-dev clang-format clang-tidy libre2-dev libssl-dev libicu-dev
)

install_system_packages() {
  local missing=() pkg
  for pkg in "${APT_PACKAGES[@]}"; do
    if ! dpkg-query -W -f='${Status}' "$pkg" 2>/dev/null | grep -q 'install ok installed'; then
      missing+=("$pkg")
    fi
  done
  # Apache Spark (the test oracle) needs Java 17 or 21; any working java will do.
  if ! command -v java >/dev/null 2>&1; then
    missing+=(openjdk-17-jre-headless)
  fi
  # A Debian system python3 needs python3-venv for `python3 -m venv`.
  if ! "$PYTHON" -c 'import ensurepip, venv' >/dev/null 2>&1 && [[ ! -x "$VENV/bin/python" ]]; then
    missing+=(python3-venv)
  fi
  if ((${#missing[@]} == 0)); then
    return
  fi
  command -v apt-get >/dev/null 2>&1 ||
    die "missing system packages (${missing[*]}) and no apt-get to install them"
  local sudo=()
  if [[ "$(id -u)" != 0 ]]; then
    command -v sudo >/dev/null 2>&1 || die "need root or sudo to install: ${missing[*]}"
    sudo=(sudo)
  fi
  log "installing system packages: ${missing[*]}"
  "${sudo[@]}" env DEBIAN_FRONTEND=noninteractive apt-get update -q
  "${sudo[@]}" env DEBIAN_FRONTEND=noninteractive \
    apt-get install -y -q --no-install-recommends "${missing[@]}"
}

if [[ "$EMBER_SETUP_APT" != 0 ]]; then
  install_system_packages
fi

# ---------------------------------------------------------------- 2. Python
# A stamp holding the hash of the requirements makes the fast path one file
# comparison instead of a pip run.
requirements_hash() {
  cat "$@" | sha256sum | cut -d' ' -f1
}

ensure_pip_requirements() {
  local stamp="$1"
  shift
  local want
  want="$(requirements_hash "$@")"
  if [[ -f "$stamp" && "$(cat "$stamp")" == "$want" ]]; then
    return
  fi
  local args=() req
  for req in "$@"; do args+=(-r "$req"); done
  log "installing Python packages from: $*"
  "$VENV/bin/python" -m pip install --disable-pip-version-check -q "${args[@]}"
  echo "$want" >"$stamp"
}

if [[ ! -x "$VENV/bin/python" ]]; then
  log "creating $VENV"
  "$PYTHON" -m venv "$VENV"
  "$VENV/bin/python" -m pip install --disable-pip-version-check -q --upgrade pip
fi
ensure_pip_requirements "$VENV/.ember-requirements" "$ROOT/requirements.txt"

# Unversioned libarrow.so / libparquet.so next to the versioned ones, so that
# anything linking with -larrow finds them (the CMake build can do without).
if ! compgen -G "$("$VENV/bin/python" -c 'import sysconfig; print(sysconfig.get_paths()["purelib"])')/pyarrow/libarrow.so" >/dev/null; then
  log "creating pyarrow library symlinks"
  "$VENV/bin/python" -c 'import pyarrow; pyarrow.create_library_symlinks()'
fi

# ---------------------------------------------------------------- 3. CUDA
# A CUDA toolkit installed on the machine wins; the wheels are only a way to
# compile the GPU code where there is none (CI, laptops without CUDA).
system_nvcc() {
  local candidate
  if [[ -n "${CUDACXX:-}" && -x "${CUDACXX}" ]]; then
    echo "$CUDACXX"
    return 0
  fi
  if command -v nvcc >/dev/null 2>&1; then
    command -v nvcc
    return 0
  fi
  for candidate in "${CUDA_HOME:-}" "${CUDA_PATH:-}" /usr/local/cuda; do
    if [[ -n "$candidate" && -x "$candidate/bin/nvcc" ]]; then
      echo "$candidate/bin/nvcc"
      return 0
    fi
  done
  return 1
}

setup_cuda_wheels() {
  ensure_pip_requirements "$VENV/.ember-requirements-cuda" "$ROOT/requirements-cuda.txt"
  local site toolkit
  site="$("$VENV/bin/python" -c 'import sysconfig; print(sysconfig.get_paths()["purelib"])')"
  toolkit="$site/nvidia/cu13"
  [[ -x "$toolkit/bin/nvcc" ]] || die "the CUDA wheels did not provide $toolkit/bin/nvcc"
  # The runtime wheel ships only the versioned libcudart.so.N; CMake's
  # CUDA::cudart wants the development name.
  if [[ ! -e "$toolkit/lib/libcudart.so" ]]; then
    local versioned
    versioned="$(cd "$toolkit/lib" && ls libcudart.so.* 2>/dev/null | head -n1)"
    [[ -n "$versioned" ]] && ln -sfn "$versioned" "$toolkit/lib/libcudart.so"
  fi
  # Some wheel releases (13.0) write an nvcc.profile that looks for headers and
  # libraries under targets/<arch>-linux/, as in an installed toolkit, which the
  # wheels do not have; links make both layouts work.
  local target_dir
  case "$(uname -m)" in
    x86_64) target_dir="$toolkit/targets/x86_64-linux" ;;
    aarch64) target_dir="$toolkit/targets/sbsa-linux" ;;
    *) die "no CUDA compiler wheels for $(uname -m)" ;;
  esac
  mkdir -p "$target_dir"
  [[ -e "$target_dir/include" ]] || ln -sfn ../../include "$target_dir/include"
  [[ -e "$target_dir/lib" ]] || ln -sfn ../../lib "$target_dir/lib"
  # A stable path for the build: .venv/cuda is a toolkit root.
  if [[ "$(readlink "$VENV/cuda" 2>/dev/null)" != "$toolkit" ]]; then
    ln -sfn "$toolkit" "$VENV/cuda"
  fi
  if ! "$VENV/cuda/bin/nvcc" --version >/dev/null 2>&1; then
    die "$VENV/cuda/bin/nvcc does not run"
  fi
}

if [[ "$EMBER_CUDA" == auto ]]; then
  if nvcc_path="$(system_nvcc)"; then
    log "using the installed CUDA compiler $nvcc_path"
  else
    setup_cuda_wheels
  fi
fi

log "ready ($("$VENV/bin/python" -c 'import pyspark, pyarrow; print(f"pyspark {pyspark.__version__}, pyarrow {pyarrow.__version__}")'))"
