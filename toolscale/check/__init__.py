"""Checks of a domain and of an output's rewards: check-domain, the fuzzer, check-rewards."""
