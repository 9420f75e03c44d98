# Sourced by the benchmarks/device_*.sh scripts (a borrowed many-core machine with no
# network): OpenSpiel from the wheels in .whl/ under /tmp/site, one thread per process,
# our sources on the path. Expects $python and $log to be set; prints the conditions.
echo "$(nproc) cores, load: $(cat /proc/loadavg); $("$python" --version)" | tee -a "$log"
if ! PYTHONPATH=/tmp/site "$python" -c 'import pyspiel' 2>/dev/null; then
    if "$python" -m pip --version >/dev/null 2>&1; then
        "$python" -m pip install -q --no-index --no-deps --no-compile --no-cache-dir --upgrade \
            --target /tmp/site .whl/*.whl
    else  # a wheel is a zip file to unpack where Python looks
        for wheel in .whl/*.whl; do "$python" -m zipfile -e "$wheel" /tmp/site; done
    fi
fi
export PYTHONPATH=/tmp/site:src:.
export NUMBA_CACHE_DIR=${NUMBA_CACHE_DIR:-/tmp/numba-cache}
export OMP_NUM_THREADS=1 OPENBLAS_NUM_THREADS=1 MKL_NUM_THREADS=1 NUMBA_NUM_THREADS=1
export PYTHONUNBUFFERED=1
