export DATABASE_URL="postgresql+asyncpg://postgres@127.0.0.1:55432/boneyard_test_17"
export BONEYARD_TEST_POSTGRES_URL="$DATABASE_URL"
export BONEYARD_TEST_REDIS_URL="redis://127.0.0.1:56379/7"
export CHROMIUM=/usr/bin/chromium
export PATH=/work/wt17/.venv/bin:$PATH
