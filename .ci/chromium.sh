# Sourced by .ci/run: installs Debian's Chromium with apt when missing, for the operator
# page's browser tests (tests/ui/test_browser.py). Playwright drives it through its path;
# Playwright's own browser download is never used.
CALLGATE_CHROMIUM=${CALLGATE_CHROMIUM:-/usr/bin/chromium}
if [ ! -x "$CALLGATE_CHROMIUM" ]; then
  export DEBIAN_FRONTEND=noninteractive
  apt-get update -qq
  apt-get install -y -qq chromium >/dev/null
fi
"$CALLGATE_CHROMIUM" --version 2>/dev/null  # its launcher script warns about this machine on stderr
export CALLGATE_CHROMIUM
