import pytest

from projects.models import Repository

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize("model", ["project", "assignment", "document", "repository", "note"])
def test_the_admin_lists_and_opens_each_kind(admin_client, project, note, model):
    Repository.objects.create(project=project, name="widget", source="local")

    listing = admin_client.get(f"/admin/projects/{model}/")
    assert listing.status_code == 200
    first = listing.context["cl"].result_list[0]
    assert admin_client.get(f"/admin/projects/{model}/{first.pk}/change/").status_code == 200
