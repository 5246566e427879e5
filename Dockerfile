FROM python:3.11-slim
RUN apt-get update -qq && apt-get install -y -qq --no-install-recommends libmagic1 file && rm -rf /var/lib/apt/lists/*
WORKDIR /app
COPY requirements.txt requirements-nodeps.txt ./
RUN pip install --no-cache-dir -r requirements.txt && pip install --no-cache-dir --no-deps -r requirements-nodeps.txt
COPY . .
ENV DATAROOM_WORKSPACE=/data DATAROOM_APP__HOST=0.0.0.0
VOLUME /data
EXPOSE 8501
CMD ["sh", "-c", "python -m ingest assets/sample_room --room sample && streamlit run app/main.py --server.address 0.0.0.0 --server.port 8501 --server.headless true --browser.gatherUsageStats false"]
