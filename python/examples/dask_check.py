"""`kifu check --json` over a collection, as a Dask bag of file shards.

Each partition of the bag is a shard of the file list; each worker reads
its shard with the kifu package (in parallel threads of its own when given
`jobs`) and returns one `check --json` object per game. The objects come
back in file order, so the output is line for line the CLI's.

    python dask_check.py SCHEDULER_ADDRESS FILE_LIST > check.jsonl

(`FILE_LIST` holds one path a line; every worker must see the same paths,
e.g. on a shared file system.)
"""

import json
import sys

import dask.bag as db


def check_shard(paths, jobs=1):
    """The check --json report of every game of the shard, in file order;
    an input kifu cannot read is an error object, as the CLI writes it."""
    import kifu

    out = []
    for item in kifu.read_many(list(paths), jobs=jobs):
        if isinstance(item, kifu.Game):
            out.append(item.report())
        else:
            path = getattr(item, "path", None) or getattr(item, "filename", None)
            error = {"message": str(item)}
            if getattr(item, "line", None) is not None:
                error.update(line=item.line, column=item.column)
            out.append({"source": path, "index": None, "error": error})
    return out


def check_files(client, paths, shards, jobs=1):
    """Run the check on `client`'s cluster; the reports, in file order."""
    bag = db.from_sequence(paths, npartitions=shards)
    reports = bag.map_partitions(check_shard, jobs=jobs)
    return client.compute(reports).result()


def main():
    from dask.distributed import Client

    address, file_list = sys.argv[1], sys.argv[2]
    with open(file_list, encoding="utf-8") as f:
        paths = [line.rstrip("\n") for line in f if line.strip()]
    with Client(address) as client:
        workers = len(client.scheduler_info()["workers"])
        for report in check_files(client, paths, shards=max(1, workers * 4)):
            sys.stdout.write(json.dumps(report, ensure_ascii=False, separators=(",", ":")) + "\n")


if __name__ == "__main__":
    main()
