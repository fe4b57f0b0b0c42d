"""Fixtures shared by the explorer's tests: a live server, and headless Chromium driven by Selenium.

``browser`` needs Debian's ``chromium`` and ``chromium-driver`` and pip's
``selenium``, and skips (saying which is missing) without them. Set
``UNILAYOUT_CHROMIUM`` / ``UNILAYOUT_CHROMEDRIVER`` to use other executables.
A test module may set ``BROWSER_WINDOW = "width,height"`` (default ``1400,1000``).
Screenshots go to ``tests/explorer/artifacts/`` (git-ignored) or to
``$UNILAYOUT_ARTIFACTS``; ``browser`` creates that folder.
"""

import os
import pathlib
import shutil

import pytest

from unilayout.explorer import serve

ARTIFACTS = pathlib.Path(os.environ.get("UNILAYOUT_ARTIFACTS") or pathlib.Path(__file__).parent / "artifacts")


def _executable(env, *names):
    """The executable ``$env`` names (None if that path is missing), else the first of ``names`` on PATH."""
    path = os.environ.get(env)
    if path:
        return path if os.path.exists(path) else None
    for name in names:
        found = shutil.which(name)
        if found:
            return found
    return None


@pytest.fixture(scope="module")
def server():
    """``unilayout.explorer.serve`` on a free port, for the module's tests."""
    srv = serve(port=0)
    yield srv
    srv.shutdown()


@pytest.fixture(scope="module")
def browser(request):
    """A headless Chromium WebDriver (window ``BROWSER_WINDOW`` of the test module), or a skip."""
    webdriver = pytest.importorskip("selenium.webdriver", reason="selenium is not installed (pip install selenium)")
    chromium = _executable("UNILAYOUT_CHROMIUM", "chromium", "chromium-browser", "google-chrome")
    driver_path = _executable("UNILAYOUT_CHROMEDRIVER", "chromedriver")
    if chromium is None:
        pytest.skip("chromium is not installed (apt-get install chromium)")
    if driver_path is None:
        pytest.skip("chromedriver is not installed (apt-get install chromium-driver)")
    from selenium.webdriver.chrome.service import Service

    opts = webdriver.ChromeOptions()
    opts.binary_location = chromium
    window = getattr(request.module, "BROWSER_WINDOW", "1400,1000")
    for arg in ("--headless=new", "--no-sandbox", "--disable-dev-shm-usage", "--disable-gpu",
                f"--window-size={window}"):
        opts.add_argument(arg)
    try:
        driver = webdriver.Chrome(service=Service(driver_path), options=opts)
    except Exception as exc:  # a browser that cannot start here is a missing dependency, not a failure
        pytest.skip(f"headless chromium does not start: {str(exc).splitlines()[0]}")
    driver.set_page_load_timeout(30)
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    yield driver
    driver.quit()
