"""The service's front ends: gRPC (server) and HTTP/JSON with its trainer dialects (http). Each
decodes a request once into the task model and encodes the result once (docs/architecture.md)."""
