FROM python:3.11-slim
RUN apt-get update -qq && apt-get install -y -qq --no-install-recommends libmagic1 file && rm -rf /var/lib/apt/lists/*
WORKDIR /app
COPY requirements.txt requirements-nodeps.txt ./
RUN pip install --no-cache-dir -r requirements.txt && pip install --no-cache-dir --no-deps -r requirements-nodeps.txt
COPY . .
# Inside a container the server must listen on 0.0.0.0 to be reachable through a published port. The app has
# no sign-in, so this is allowed only by the explicit override below: publish the port on the host's loopback
# (docker run -p 127.0.0.1:8501:8501 ...) or behind a proxy that signs users in, never on a public interface.
# Folder ingest stays off (no DATAROOM_APP__FOLDER_INGEST_ROOT): the container's own files cannot be ingested.
ENV DATAROOM_WORKSPACE=/data DATAROOM_APP__HOST=0.0.0.0 DATAROOM_APP__PORT=8501 \
    DATAROOM_APP__ALLOW_UNAUTHENTICATED_REMOTE=1
VOLUME /data
EXPOSE 8501
CMD ["sh", "-c", "python -m ingest assets/sample_room --room sample && exec python -m app"]
