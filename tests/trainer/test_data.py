"""A `--dataset` that cannot exist is refused at once, before `datasets` retries the Hub."""

from __future__ import annotations

import time

import pytest

from toolscale.core.errors import ConfigError
from trainer import cli
from trainer.data import check_dataset


@pytest.mark.parametrize(
    ("dataset", "words"),
    [
        ("out/nothere", "no such folder (its parent folder exists)"),
        ("./demo", "does not exist"),
        ("a/b/c", "does not exist"),
    ],
)
def test_a_dataset_that_is_no_folder_nor_a_hub_id_is_refused(tmp_path, monkeypatch, dataset, words):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "out").mkdir()
    with pytest.raises(ConfigError) as refused:
        check_dataset(dataset)
    assert str(refused.value).startswith(f"--dataset {dataset}") and words in str(refused.value)


def test_a_folder_or_a_hub_id_passes(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "out" / "demo").mkdir(parents=True)
    check_dataset("out/demo")
    check_dataset("some-org/some-dataset")  # no folder some-org here: may be on the Hub
    check_dataset("squad")  # a bare name may be a Hub dataset too


def test_sft_on_a_missing_output_folder_is_one_line_without_hub_retries(
    tmp_path, monkeypatch, capsys
):
    # it took 30 s of Hub retries and 13 lines before blaming the Hub
    monkeypatch.chdir(tmp_path)
    (tmp_path / "out").mkdir()
    start = time.monotonic()
    with pytest.raises(SystemExit) as exited:
        cli.main(["sft", "--dataset", "out/nothere", "--output_dir", "runs/x"])
    assert exited.value.code == 2 and time.monotonic() - start < 20
    lines = [line for line in capsys.readouterr().err.splitlines() if line.strip()]
    assert lines == [
        "error: --dataset out/nothere: no such folder (its parent folder exists); give the "
        "folder `toolscale generate --out` wrote, or a Hub dataset id ORG/NAME"
    ]
    assert not (tmp_path / "runs").exists()
