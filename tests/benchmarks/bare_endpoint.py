"""The reference for the tables benchmark: a bare DRF endpoint that validates a small body and
inserts one row, served by the same gunicorn with the same settings (token auth, throttles) as the
API, so the two rates compare the web path and not the setup."""

from __future__ import annotations

from django.db import connection
from rest_framework import serializers, status
from rest_framework.response import Response
from rest_framework.views import APIView

TABLE = "bench_bare_rows"
CREATE_TABLE = (
    f"CREATE TABLE IF NOT EXISTS {TABLE} ("
    "id bigserial PRIMARY KEY, user_id integer NOT NULL, name varchar(40) NOT NULL, "
    "value integer NOT NULL, created_at timestamptz NOT NULL DEFAULT now())"
)


class BareSerializer(serializers.Serializer):
    name = serializers.CharField(max_length=40)
    value = serializers.IntegerField(min_value=0, max_value=1_000_000)


class BareView(APIView):
    def post(self, request):
        serializer = BareSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        data = serializer.validated_data
        with connection.cursor() as cursor:
            cursor.execute(
                f"INSERT INTO {TABLE} (user_id, name, value) VALUES (%s, %s, %s) RETURNING id",
                [request.user.pk, data["name"], data["value"]],
            )
            (row_id,) = cursor.fetchone()
        return Response({"id": row_id}, status=status.HTTP_201_CREATED)
