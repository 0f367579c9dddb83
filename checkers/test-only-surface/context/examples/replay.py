from bad import ReplayClient

print(ReplayClient("http://localhost:8000").url)
