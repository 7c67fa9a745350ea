#!/usr/bin/env bash
# Tools the test suite uses besides Node and Docker, installed from package registries only:
#   actionlint (Go module proxy) lints .github/workflows and the workflows the README and
#   docs/action.md show;
#   junitparser (PyPI) reads our JUnit XML back the way CI report tools do;
#   act (nektos/act, Go module proxy) runs the dogfood workflow in a real Actions runtime
#   (__tests__/integration/act.test.ts);
#   chromium (Debian) opens the HTML report in a real browser (__tests__/integration/html-browser.test.ts,
#   driven by puppeteer-core from npm).
# Idempotent; installs into .tools/ in the repository (git-ignored), except chromium (apt, as root).
set -euo pipefail
cd "$(dirname "$0")/.."
ACTIONLINT_VERSION=v1.7.12
ACT_VERSION=v0.2.89
JUNITPARSER_VERSION=5.0.3
mkdir -p .tools/bin
if [ ! -x .tools/bin/actionlint ]; then
  echo "[provision-test-tools] actionlint $ACTIONLINT_VERSION"
  GOBIN="$PWD/.tools/bin" go install "github.com/rhysd/actionlint/cmd/actionlint@$ACTIONLINT_VERSION"
fi
if [ ! -x .tools/bin/act ] || ! .tools/bin/act --version | grep -q "${ACT_VERSION#v}"; then
  echo "[provision-test-tools] act $ACT_VERSION"
  GOBIN="$PWD/.tools/bin" go install "github.com/nektos/act@$ACT_VERSION"
fi
if ! PYTHONPATH="$PWD/.tools/python" python3 -c 'import junitparser' 2>/dev/null; then
  echo "[provision-test-tools] junitparser $JUNITPARSER_VERSION"
  python3 -m pip install --quiet --disable-pip-version-check --target "$PWD/.tools/python" "junitparser==$JUNITPARSER_VERSION"
fi
if ! command -v chromium >/dev/null 2>&1; then
  if [ "$(id -u)" = 0 ]; then
    echo "[provision-test-tools] chromium (Debian)"
    apt-get update -qq
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends chromium >/dev/null
  else
    echo "[provision-test-tools] chromium is not installed and this is not root: the browser test skips (fails with CI set)"
  fi
fi
echo "[provision-test-tools] ready: $(.tools/bin/actionlint --version | head -1), $(.tools/bin/act --version), junitparser $JUNITPARSER_VERSION"
