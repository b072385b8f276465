"""The pages: new game, play, games, calibrate, status. They are shells; app.js fills them."""

from __future__ import annotations

from flask import Blueprint, redirect, render_template, url_for

from webui.context import has_control, table

bp = Blueprint("pages", __name__)


@bp.get("/")
def index():
    return redirect(url_for("pages.play" if table().session else "pages.new_game"))


@bp.get("/new")
def new_game():
    return render_template("new.html", control=has_control())


@bp.get("/play")
def play():
    return render_template("play.html", control=has_control())


@bp.get("/games")
def games():
    return render_template("games.html", control=has_control(), games=table().store.games())


@bp.get("/calibrate")
def calibrate():
    return render_template("calibrate.html", control=has_control())


@bp.get("/status")
def status():
    return render_template("status.html", control=has_control())
