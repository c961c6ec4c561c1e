#!/usr/bin/env python3
"""Runs the Argo CD plugin of this folder on an application folder, without Argo CD.

    functions/ipreuse/argocd/try-locally.py [--env NAME=VALUE]... [--param NAME=VALUE]... APP

It does what argocd-cmp-server does for one Application, with the commands of plugin.yaml (the
file beside this script) as they are written, so that what you see is what the sidecar renders:

1. copies APP to a temporary folder (the server renders a fresh copy of the repository; your
   files are never changed);
2. `discover`: the `fileName` glob must match a file in the copy, else the plugin would not be
   chosen for this folder (exit 1);
3. `init`, then `generate`: `command` followed by `args`, exec'd without a shell of their own,
   in the copy, with Argo CD's build variables (ARGOCD_APP_NAME=local, ...), each `--env
   NAME=VALUE` as ARGOCD_ENV_NAME (an Application's `plugin.env`), and each `--param
   NAME=VALUE` as PARAM_NAME and in ARGOCD_APP_PARAMETERS (its `plugin.parameters`, a string);
4. prints generate's stdout, the manifests Argo CD would apply; stderr (ipreuse's warnings and
   summary, or its error) passes through. The exit code is the failing step's.

It needs python3 with PyYAML (Debian: python3-yaml) to read plugin.yaml, and on PATH what the
sidecar image has: bash, ipreuse, and kustomize for an application with a kustomization.
"""

import argparse
import glob
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile

import yaml

HERE = os.path.dirname(os.path.abspath(__file__))


def pair(text):
    name, sep, value = text.partition("=")
    if not sep or not name:
        raise argparse.ArgumentTypeError(f"expected NAME=VALUE, not {text!r}")
    return name, value


def param_variable(name):
    """PARAM_<NAME> as Argo CD spells it: upper case, other characters than A-Z0-9_ as _."""
    return "PARAM_" + re.sub(r"[^A-Z0-9_]", "_", name.upper())


def main():
    parser = argparse.ArgumentParser(
        description="Run plugin.yaml's discover, init and generate on an application folder, as argocd-cmp-server does."
    )
    parser.add_argument("--env", type=pair, action="append", default=[], metavar="NAME=VALUE",
                        help="an Application plugin.env entry (passed as ARGOCD_ENV_NAME)")
    parser.add_argument("--param", type=pair, action="append", default=[], metavar="NAME=VALUE",
                        help="an Application plugin.parameters entry, a string (PARAM_NAME)")
    parser.add_argument("app", help="the application folder")
    args = parser.parse_args()

    with open(os.path.join(HERE, "plugin.yaml"), encoding="utf-8") as f:
        plugin = yaml.safe_load(f)
    spec = plugin["spec"]
    if not os.path.isdir(args.app):
        print(f"try-locally: {args.app} is not a folder", file=sys.stderr)
        return 2

    with tempfile.TemporaryDirectory(prefix="ipreuse-argocd-") as tmp:
        app = os.path.join(tmp, "app")
        shutil.copytree(args.app, app, symlinks=True)

        pattern = spec["discover"]["fileName"]
        if not glob.glob(os.path.join(app, pattern)):
            print(f"discover: no file of {args.app} matches {pattern!r}: Argo CD would not choose this plugin",
                  file=sys.stderr)
            return 1
        print(f"discover: {pattern} matches; plugin {plugin['metadata']['name']}-{spec['version']}",
              file=sys.stderr)

        env = dict(os.environ)
        env.update({
            "ARGOCD_APP_NAME": "local",
            "ARGOCD_APP_NAMESPACE": "argocd",
            "ARGOCD_APP_REVISION": "local",
            "ARGOCD_APP_SOURCE_PATH": args.app,
            "ARGOCD_APP_SOURCE_REPO_URL": "file://" + os.path.abspath(args.app),
            "ARGOCD_APP_SOURCE_TARGET_REVISION": "HEAD",
        })
        for name, value in args.env:
            env["ARGOCD_ENV_" + name] = value
        parameters = [{"name": n, "string": v} for n, v in args.param]
        env["ARGOCD_APP_PARAMETERS"] = json.dumps(parameters or None)
        for name, value in args.param:
            env[param_variable(name)] = value

        for step in ("init", "generate"):
            command = spec[step]["command"] + spec[step].get("args", [])
            stdout = subprocess.PIPE if step == "generate" else subprocess.DEVNULL
            done = subprocess.run(command, cwd=app, env=env, stdout=stdout, check=False)
            if done.returncode != 0:
                print(f"{step}: exit {done.returncode}: Argo CD would show the message above on the Application",
                      file=sys.stderr)
                return done.returncode
        sys.stdout.buffer.write(done.stdout)
    return 0


if __name__ == "__main__":
    sys.exit(main())
