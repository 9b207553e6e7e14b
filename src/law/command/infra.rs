//! Someone else's systems: cloud infrastructure, clusters and deployed apps. A change scores
//! three before reading (Auto asks unless the person asked), production needs its word.

use super::Scan;
use crate::catalogue::{self, Class};
use crate::law::rule::RuleId;
use crate::shell::Command;
use crate::verdict::{Harm, Risk};
use crate::wish::{Act, Name, Wish};

/// What a tool's subcommand does to the systems it reaches.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Effect {
    Change,
    Destroy,
}

/// One line of the table: a program, the subcommand words its first positional words must
/// match in order (`*` matches any one word), what they do, and (checked by
/// `rows::every_row_judges_its_examples_and_leaves_its_look_alikes`) lines the row must judge
/// and look-alikes it must leave alone. The longest row that matches decides, so a row that
/// only reads (`fly scale show`) keeps a shorter row that changes (`fly scale`) off it.
struct Row {
    program: &'static str,
    words: &'static [&'static str],
    /// `None` for a row that only reads.
    effect: Option<Effect>,
    #[cfg(test)]
    examples: super::table::Examples,
}

use super::table::{ByProgram, Lines};

impl Row {
    const fn change(
        program: &'static str,
        words: &'static [&'static str],
        matches: Lines,
        not_matches: Lines,
    ) -> Row {
        Row::new(program, words, Some(Effect::Change), matches, not_matches)
    }

    const fn destroy(
        program: &'static str,
        words: &'static [&'static str],
        matches: Lines,
        not_matches: Lines,
    ) -> Row {
        Row::new(program, words, Some(Effect::Destroy), matches, not_matches)
    }

    const fn reads(
        program: &'static str,
        words: &'static [&'static str],
        matches: Lines,
        not_matches: Lines,
    ) -> Row {
        Row::new(program, words, None, matches, not_matches)
    }

    const fn new(
        program: &'static str,
        words: &'static [&'static str],
        effect: Option<Effect>,
        matches: Lines,
        not_matches: Lines,
    ) -> Row {
        #[cfg(not(test))]
        let _ = (matches, not_matches);
        Row {
            program,
            words,
            effect,
            #[cfg(test)]
            examples: super::table::Examples {
                matches,
                not_matches,
            },
        }
    }
}

/// The tools' subcommands that change or destroy deployed systems, one row each.
#[rustfmt::skip]
const TABLE: &[Row] = &[
    Row::change("terraform", &["apply"], &["terraform apply -auto-approve", "terraform -chdir=infra apply tfplan"], &["terraform plan -out=tfplan", "terraform apply -help"]),
    Row::destroy("terraform", &["destroy"], &["terraform destroy -auto-approve -target=aws_instance.web"], &["terraform plan -destroy", "tofu destroy"]),
    Row::change("terraform", &["import"], &["terraform import aws_s3_bucket.logs acme-logs"], &["terraform state list"]),
    Row::change("terraform", &["taint"], &["terraform taint aws_instance.web"], &["terraform show"]),
    // The state's twins of taint and rm: what the next apply replaces, and where a resource is.
    Row::change("terraform", &["untaint"], &["terraform untaint aws_instance.web"], &["terraform state show aws_instance.web"]),
    Row::change("terraform", &["state", "mv"], &["terraform state mv aws_instance.a aws_instance.b"], &["terraform state list"]),
    Row::change("terraform", &["state", "replace-provider"], &["terraform state replace-provider hashicorp/aws acme/aws"], &["terraform providers"]),
    // A lock taken off another run's state: two applies may then write it at once.
    Row::change("terraform", &["force-unlock"], &["terraform force-unlock -force 6b4a1c2e"], &["terraform state pull"]),
    Row::destroy("terraform", &["state", "rm"], &["terraform state rm aws_instance.web"], &["terraform state show aws_instance.web"]),
    Row::change("terraform", &["state", "push"], &["terraform state push terraform.tfstate"], &["terraform state pull"]),
    Row::destroy("terraform", &["workspace", "delete"], &["terraform workspace delete staging"], &["terraform workspace select staging"]),
    Row::change("tofu", &["apply"], &["tofu apply -auto-approve"], &["tofu plan", "terraform apply -auto-approve"]),
    Row::destroy("tofu", &["destroy"], &["tofu destroy -auto-approve"], &["tofu plan -destroy"]),
    Row::change("tofu", &["import"], &["tofu import aws_s3_bucket.logs acme-logs"], &["tofu state list"]),
    Row::change("tofu", &["taint"], &["tofu taint aws_instance.web"], &["tofu show"]),
    Row::change("tofu", &["untaint"], &["tofu untaint aws_instance.web"], &["tofu state show aws_instance.web"]),
    Row::destroy("tofu", &["state", "rm"], &["tofu state rm aws_instance.web"], &["tofu state show aws_instance.web"]),
    Row::change("tofu", &["state", "mv"], &["tofu state mv aws_instance.a aws_instance.b"], &["tofu state list"]),
    Row::change("tofu", &["state", "push"], &["tofu state push terraform.tfstate"], &["tofu state pull"]),
    Row::change("tofu", &["force-unlock"], &["tofu force-unlock -force 6b4a1c2e"], &["tofu output"]),
    Row::destroy("tofu", &["workspace", "delete"], &["tofu workspace delete staging"], &["tofu workspace select staging"]),
    Row::change("terragrunt", &["apply"], &["terragrunt apply -auto-approve"], &["terragrunt plan"]),
    Row::change("terragrunt", &["run-all", "apply"], &["terragrunt run-all apply --terragrunt-non-interactive"], &["terragrunt run-all plan"]),
    Row::destroy("terragrunt", &["destroy"], &["terragrunt destroy"], &["terragrunt output"]),
    Row::destroy("terragrunt", &["run-all", "destroy"], &["terragrunt run-all destroy --terragrunt-non-interactive"], &["terragrunt run-all validate"]),
    Row::change("kubectl", &["apply"], &["kubectl apply -f k8s/deployment.yaml", "kubectl apply -k overlays/staging"], &["kubectl apply -f k8s/ --dry-run=client", "kubectl diff -f k8s/deployment.yaml"]),
    // What the last apply wrote, only shown (`edit-last-applied` and `set-last-applied` change it).
    Row::reads("kubectl", &["apply", "view-last-applied"], &["kubectl apply view-last-applied deployment/web -o json"], &["kubectl apply edit-last-applied deployment/web"]),
    Row::change("kubectl", &["create"], &["kubectl create deployment web --image=nginx:1.27"], &["kubectl create deployment web --image=nginx --dry-run=client -o yaml", "kubectl get deployments"]),
    Row::change("kubectl", &["replace"], &["kubectl replace --force -f pod.yaml"], &["kubectl replace --help"]),
    Row::change("kubectl", &["patch"], &["kubectl patch deployment web -p '{\"spec\":{\"replicas\":3}}'"], &["kubectl get deployment web -o yaml"]),
    Row::change("kubectl", &["edit"], &["kubectl edit deployment web -n staging"], &["kubectl describe deployment web -n staging"]),
    Row::change("kubectl", &["scale"], &["kubectl scale deployment web --replicas=0"], &["kubectl get deployment web"]),
    Row::change("kubectl", &["autoscale"], &["kubectl autoscale deployment web --min=2 --max=10 --cpu-percent=80"], &["kubectl get hpa web", "kubectl scale deployment web --replicas=3"]),
    Row::change("kubectl", &["set"], &["kubectl set image deployment/web web=nginx:1.27"], &["kubectl config set-context --current --namespace=dev"]),
    Row::change("kubectl", &["rollout", "restart"], &["kubectl rollout restart deployment/web"], &["kubectl rollout status deployment/web"]),
    Row::change("kubectl", &["rollout", "undo"], &["kubectl rollout undo deployment/web --to-revision=2"], &["kubectl rollout history deployment/web"]),
    Row::change("kubectl", &["drain"], &["kubectl drain node-1 --ignore-daemonsets --delete-emptydir-data"], &["kubectl drain node-1 --dry-run=server", "kubectl get nodes"]),
    Row::change("kubectl", &["cordon"], &["kubectl cordon node-1"], &["kubectl describe node node-1"]),
    Row::change("kubectl", &["uncordon"], &["kubectl uncordon node-1", "kubectl uncordon -l pool=gpu"], &["kubectl get nodes -l pool=gpu"]),
    Row::change("kubectl", &["certificate", "approve"], &["kubectl certificate approve csr-7xk2p"], &["kubectl get csr", "kubectl describe csr csr-7xk2p"]),
    Row::change("kubectl", &["certificate", "deny"], &["kubectl certificate deny csr-7xk2p"], &["kubectl get certificatesigningrequests"]),
    Row::change("kubectl", &["taint"], &["kubectl taint nodes node-1 dedicated=gpu:NoSchedule"], &["terraform taint aws_instance.web"]),
    Row::change("kubectl", &["label"], &["kubectl label pods web-1 tier=frontend --overwrite"], &["kubectl get pods -l tier=frontend"]),
    Row::change("kubectl", &["annotate"], &["kubectl annotate deployment web kubernetes.io/change-cause='bump image'"], &["kubectl get deployment web -o jsonpath='{.metadata.annotations}'"]),
    Row::change("kubectl", &["expose"], &["kubectl expose deployment web --port=80 --type=LoadBalancer"], &["kubectl get services"]),
    Row::change("kubectl", &["debug"], &["kubectl debug node/node-1 -it --image=busybox", "kubectl debug web-1 -it --image=busybox --target=web"], &["kubectl describe node node-1", "kubectl debug --help"]),
    Row::change("kubectl", &["run"], &["kubectl run debug --image=busybox --restart=Never -- sleep 3600"], &["kubectl run debug --image=busybox --dry-run=client -o yaml"]),
    Row::destroy("kubectl", &["delete"], &["kubectl delete namespace staging", "kubectl delete pods --all -n staging"], &["kubectl get namespace staging", "kubectl delete namespace staging --dry-run=server"]),
    Row::change("helm", &["install"], &["helm install web ./chart -f values.yaml"], &["helm install web ./chart --dry-run", "helm template web ./chart"]),
    Row::change("helm", &["upgrade"], &["helm upgrade --install web ./chart --namespace staging"], &["helm diff upgrade web ./chart", "helm history web"]),
    Row::change("helm", &["rollback"], &["helm rollback web 3"], &["helm history web"]),
    // Its aliases (`helm delete`, `helm del`, `helm un`) are written out as `uninstall` by the
    // shell reader (`shell::options`), as helm reads them.
    Row::destroy("helm", &["uninstall"], &["helm uninstall web -n staging", "helm delete web", "helm un web"], &["helm list -n staging", "helm uninstall web --dry-run", "helm status web"]),
    Row::change("fly", &["deploy"], &["fly deploy --remote-only", "flyctl deploy --app acme-api"], &["fly status", "fly deploy --help", "fly deploy --build-only"]),
    Row::change("fly", &["scale"], &["fly scale count 3", "fly scale vm shared-cpu-2x"], &["fly scale show", "fly status"]),
    Row::reads("fly", &["scale", "show"], &["fly scale show", "flyctl scale show --app acme-api"], &["fly scale count 3"]),
    Row::change("fly", &["secrets", "set"], &["fly secrets set LOG_LEVEL=debug"], &["fly secrets list"]),
    Row::destroy("fly", &["apps", "destroy"], &["fly apps destroy acme-api --yes", "flyctl apps destroy acme-api -y"], &["fly apps list"]),
    Row::destroy("fly", &["destroy"], &["fly destroy acme-api -y"], &["fly status -a acme-api"]),
    Row::change("vercel", &[], &["vercel --prod", "vercel", "vercel apps/web --prod"], &["vercel ls", "vercel whoami"]),
    Row::change("vercel", &["deploy"], &["vercel deploy --prod"], &["vercel inspect acme-web.vercel.app", "vercel deploy --help"]),
    Row::change("vercel", &["promote"], &["vercel promote https://acme-web-abc123.vercel.app"], &["vercel list"]),
    Row::change("vercel", &["rollback"], &["vercel rollback https://acme-web-abc123.vercel.app"], &["helm rollback web 3"]),
    Row::destroy("vercel", &["remove"], &["vercel remove acme-web --yes"], &["vercel project ls"]),
    Row::destroy("vercel", &["rm"], &["vercel rm acme-web-abc123.vercel.app --yes"], &["vercel ls acme-web"]),
    Row::change("netlify", &["deploy"], &["netlify deploy --prod --dir=dist"], &["netlify status", "netlify deploy --help"]),
    Row::change("pulumi", &["up"], &["pulumi up --yes --stack prod"], &["pulumi preview --stack prod"]),
    Row::change("pulumi", &["update"], &["pulumi update --yes"], &["pulumi stack ls"]),
    Row::destroy("pulumi", &["destroy"], &["pulumi destroy --yes --stack dev"], &["pulumi stack output", "pulumi destroy --preview-only"]),
    Row::change("pulumi", &["refresh"], &["pulumi refresh --yes"], &["pulumi preview"]),
    Row::change("pulumi", &["import"], &["pulumi import aws:s3/bucket:Bucket logs acme-logs"], &["pulumi stack export"]),
    Row::change("pulumi", &["cancel"], &["pulumi cancel -y"], &["pulumi whoami"]),
    // The stack's page opened in the person's browser, not a console on a hosted machine.
    Row::reads("pulumi", &["console"], &["pulumi console -s dev"], &["pulumi up --yes"]),
    Row::change("pulumi", &["state", "repair"], &["pulumi state repair"], &["pulumi stack history"]),
    Row::change("pulumi", &["state", "edit"], &["pulumi state edit --stack dev"], &["pulumi stack ls"]),
    Row::destroy("pulumi", &["state", "delete"], &["pulumi state delete 'urn:pulumi:dev::app::aws:s3/bucket:Bucket::logs'"], &["pulumi stack --show-urns"]),
    Row::destroy("pulumi", &["stack", "rm"], &["pulumi stack rm dev --yes"], &["pulumi stack select dev"]),
    Row::change("pulumi", &["env", "init"], &["pulumi env init acme/prod"], &["pulumi env ls"]),
    Row::change("pulumi", &["env", "set"], &["pulumi env set acme/prod region us-east-1"], &["pulumi env get acme/prod region"]),
    Row::destroy("pulumi", &["env", "rm"], &["pulumi env rm acme/dev --yes"], &["pulumi env open acme/dev"]),
    Row::change("cdk", &["bootstrap"], &["cdk bootstrap aws://123456789012/us-east-1"], &["cdk synth", "cdk doctor"]),
    Row::change("cdk", &["deploy"], &["cdk deploy --all --require-approval never"], &["cdk diff", "cdk synth"]),
    Row::destroy("cdk", &["destroy"], &["cdk destroy --force ApiStack"], &["cdk ls"]),
    Row::change("serverless", &["deploy"], &["serverless deploy --stage prod", "sls deploy --stage dev"], &["serverless info --stage dev"]),
    // Terraform's console evaluates expressions here, over the state it reads.
    Row::reads("terraform", &["console"], &["terraform console -var-file=dev.tfvars"], &["terraform apply -auto-approve"]),
    Row::reads("tofu", &["console"], &["tofu console"], &["tofu apply -auto-approve"]),
    Row::reads("serverless", &["deploy", "list"], &["serverless deploy list", "sls deploy list functions"], &["serverless deploy --stage dev"]),
    Row::destroy("serverless", &["remove"], &["serverless remove --stage dev", "sls remove --stage staging"], &["sls info --stage staging"]),
    Row::change("heroku", &["releases:rollback"], &["heroku releases:rollback v102 -a acme-api"], &["heroku releases -a acme-api"]),
    Row::destroy("heroku", &["apps:destroy"], &["heroku apps:destroy acme-api --confirm acme-api"], &["heroku apps:info acme-api"]),
    // What takes a hosted app away from its users without deleting it: its processes scaled
    // (to none), a maintenance page, its site no longer served, its last deployment removed.
    Row::change("heroku", &["ps:scale"], &["heroku ps:scale web=0 -a acme-api"], &["heroku ps -a acme-api"]),
    Row::change("heroku", &["maintenance:on"], &["heroku maintenance:on -a acme-api"], &["heroku maintenance -a acme-api"]),
    Row::change("ansible-playbook", &["*"], &["ansible-playbook -i inventory/prod site.yml"], &["ansible-playbook site.yml --check", "ansible-playbook site.yml --syntax-check"]),
    Row::change("eb", &["deploy"], &["eb deploy acme-api-prod"], &["eb status"]),
    Row::destroy("eb", &["terminate"], &["eb terminate acme-api-staging --force"], &["eb health"]),
    Row::change("firebase", &["deploy"], &["firebase deploy --only hosting"], &["firebase emulators:start"]),
    Row::change("firebase", &["hosting:disable"], &["firebase hosting:disable -f", "firebase hosting:disable --site acme"], &["firebase hosting:channel:list"]),
    Row::change("wrangler", &["deploy"], &["wrangler deploy"], &["wrangler dev"]),
    Row::change("wrangler", &["publish"], &["wrangler publish --env production"], &["wrangler tail"]),
    Row::change("railway", &["up"], &["railway up --detach"], &["railway status"]),
    Row::change("railway", &["down"], &["railway down -y", "railway down"], &["railway logs", "railway status"]),
    Row::change("docker", &["stack", "deploy"], &["docker stack deploy -c docker-compose.yml app"], &["docker stack ls", "docker compose up -d"]),
    Row::destroy("docker", &["stack", "rm"], &["docker stack rm app"], &["docker stack ps app"]),
    // A swarm's services, nodes, secrets and configs are the cluster's, as a stack is.
    Row::change("docker", &["service", "create"], &["docker service create --name api --replicas 3 acme/api:1.4"], &["docker service ls", "docker run --name api acme/api:1.4"]),
    Row::change("docker", &["service", "update"], &["docker service update --image acme/api:1.5 api"], &["docker service inspect api"]),
    Row::change("docker", &["service", "scale"], &["docker service scale api=0"], &["docker service ps api"]),
    Row::change("docker", &["service", "rollback"], &["docker service rollback api"], &["docker service logs api"]),
    Row::destroy("docker", &["service", "rm"], &["docker service rm api"], &["docker service ls", "docker rm api"]),
    Row::change("docker", &["node", "update"], &["docker node update --availability drain node-2"], &["docker node ls"]),
    Row::change("docker", &["node", "demote"], &["docker node demote node-2"], &["docker node inspect node-2"]),
    Row::change("docker", &["node", "promote"], &["docker node promote node-2"], &["docker node ps node-2"]),
    Row::destroy("docker", &["node", "rm"], &["docker node rm --force node-2"], &["docker node ls"]),
    Row::change("docker", &["secret", "create"], &["docker secret create db_pass ./pass.txt"], &["docker secret ls"]),
    Row::destroy("docker", &["secret", "rm"], &["docker secret rm db_pass"], &["docker secret inspect db_pass"]),
    Row::change("docker", &["config", "create"], &["docker config create nginx_conf ./nginx.conf"], &["docker config ls"]),
    Row::destroy("docker", &["config", "rm"], &["docker config rm nginx_conf"], &["docker config inspect nginx_conf"]),
    // Joining a swarm lets its managers run containers here; leaving or making one changes
    // which cluster this machine serves.
    Row::change("docker", &["swarm", "join"], &["docker swarm join --token SWMTKN-1-abc 10.0.0.1:2377"], &["docker swarm join-token worker", "docker info"]),
    Row::change("docker", &["swarm", "init"], &["docker swarm init --advertise-addr 10.0.0.2"], &["docker swarm ca"]),
    Row::change("docker", &["swarm", "leave"], &["docker swarm leave --force"], &["docker node ls"]),
    // ko builds, pushes and hands kubectl its manifests; skaffold deploys to the cluster.
    Row::change("ko", &["apply"], &["ko apply -f config/"], &["ko build ./cmd/app --local"]),
    Row::change("ko", &["create"], &["ko create -f config/"], &["ko version"]),
    Row::change("ko", &["run"], &["ko run ./cmd/app"], &["ko login ghcr.io -u me --password-stdin"]),
    Row::destroy("ko", &["delete"], &["ko delete -f config/"], &["ko resolve -f config/ --local"]),
    Row::change("skaffold", &["run"], &["skaffold run -p prod"], &["skaffold build", "skaffold diagnose"]),
    Row::change("skaffold", &["deploy"], &["skaffold deploy --images acme/api:1.5"], &["skaffold render"]),
    Row::destroy("skaffold", &["delete"], &["skaffold delete"], &["skaffold dev --help"]),
    Row::destroy("doctl", &["*", "*", "delete"], &["doctl compute droplet delete web-1 --force"], &["doctl compute droplet list"]),
    Row::change("doctl", &["*", "*", "create"], &["doctl compute droplet create web-1 --size s-1vcpu-1gb --image ubuntu-24-04-x64 --region nyc1"], &["doctl compute droplet get web-1"]),
    Row::change("doctl", &["*", "*", "update"], &["doctl kubernetes cluster update prod --auto-upgrade"], &["doctl kubernetes cluster get prod"]),
    Row::destroy("doctl", &["*", "delete"], &["doctl apps delete 5f1c --force", "doctl d rm 9a2b"], &["doctl apps get 5f1c", "doctl databases list"]),
    Row::change("doctl", &["*", "create"], &["doctl apps create --spec .do/app.yaml", "doctl projects create --name web --purpose 'Web Application'"], &["doctl apps list", "doctl projects list"]),
    Row::change("doctl", &["*", "update"], &["doctl apps update 5f1c --spec .do/app.yaml"], &["doctl apps spec get 5f1c"]),
    Row::change("doctl", &["apps", "create-deployment"], &["doctl apps create-deployment 5f1c", "doctl a cd 5f1c"], &["doctl apps list-deployments 5f1c"]),
    Row::change("aws", &["cloudformation", "deploy"], &["aws cloudformation deploy --template-file template.yaml --stack-name app"], &["aws cloudformation describe-stacks --stack-name app"]),
    Row::change("aws", &["cloudformation", "create-stack"], &["aws cloudformation create-stack --stack-name app --template-body file://template.yaml"], &["aws cloudformation validate-template --template-body file://template.yaml"]),
    Row::change("aws", &["cloudformation", "update-stack"], &["aws cloudformation update-stack --stack-name app --use-previous-template"], &["aws cloudformation list-stacks"]),
    Row::destroy("aws", &["cloudformation", "delete-stack"], &["aws cloudformation delete-stack --stack-name app"], &["aws cloudformation describe-stack-events --stack-name app"]),
    Row::destroy("aws", &["s3", "rb"], &["aws s3 rb s3://acme-old-logs --force"], &["aws s3 ls s3://acme-old-logs"]),
    Row::change("aws", &["ecs", "update-service"], &["aws ecs update-service --cluster prod --service web --force-new-deployment"], &["aws ecs describe-services --cluster prod --services web"]),
    Row::change("aws", &["lambda", "update-function-code"], &["aws lambda update-function-code --function-name api --zip-file fileb://function.zip"], &["aws lambda get-function --function-name api"]),
];

/// Does the infrastructure table read this program's changes? Then its words are the
/// table's, not `words.rs`'s.
pub(super) fn knows(program: &str) -> bool {
    BY_PROGRAM.knows(program)
}

/// Does a row of the table say this command only reads (`terraform console`, `kubectl apply
/// view-last-applied`, `fly scale show`)? The words reader then finds nothing in it either.
pub(super) fn only_reads(cmd: &Command) -> bool {
    let words = positional_after_values(cmd.args());
    table_row(cmd.program(), &words).is_some_and(|(_, row)| row.effect.is_none())
}

/// The table's rows by program. Every command of every line asks for its program's rows
/// (three times in `judge`), so it is one lookup, not a walk of the whole table comparing
/// names.
static BY_PROGRAM: std::sync::LazyLock<ByProgram> = std::sync::LazyLock::new(|| {
    let programs: Vec<&'static str> = TABLE.iter().map(|row| row.program).collect();
    ByProgram::new(&programs)
});

/// Kubernetes objects whose deletion takes everything in them.
const WHOLESALE: &[&str] = &[
    "namespace",
    "namespaces",
    "ns",
    "pv",
    "pvc",
    "persistentvolume",
    "persistentvolumeclaim",
    "node",
    "nodes",
    "crd",
];

/// Words in a command that say it targets production.
const PROD_MARKS: &[&str] = &["prod", "production", "prd", "live"];

pub(super) fn judge(cmd: &Command, scan: &mut Scan<'_>) {
    let program = cmd.program();
    let words = positional_after_values(cmd.args());
    let kafka_deletes = program.starts_with("kafka-")
        && (program == "kafka-delete-records"
            || cmd
                .args()
                .iter()
                .any(|a| a == "--delete" || a == "--remove" || a == "--delete-config"));
    // A global option the list doesn't know may take a value too (`supabase --workdir x db
    // reset`, `railway --service api down`): read so when the words as written match no row.
    let words = if table_row(program, &words).is_none() {
        let skipped = leading_values_skipped(cmd.args());
        if table_row(program, &skipped).is_some() {
            skipped
        } else {
            words
        }
    } else {
        words
    };
    // A row of the table decides, even one that only reads.
    let row = table_row(program, &words);
    let effect = match row {
        Some((_, row)) => row.effect,
        None => cloud_effect(program, &words).or(kafka_deletes.then_some(Effect::Destroy)),
    };
    // What a destroy names after its row's words (`kubectl delete namespace staging`, `helm
    // uninstall web`, `aws s3 rb s3://old-logs`): its last word, the resource's own name.
    let destroyed = row
        .and_then(|(_, row)| words.get(row.words.len()..))
        .and_then(|rest| rest.last())
        .map(|name| {
            let name = name.split_once("://").map_or(*name, |(_, rest)| rest);
            name.trim_end_matches('/').to_lowercase()
        })
        .filter(|name| !name.is_empty() && !name.contains(['$', '`', '*']));
    let Some(mut effect) = effect else { return };
    // A dry run, a check or a request for help changes nothing.
    // (`--generate-cli-skeleton` prints a template of the request.)
    let asks_help = cmd
        .args()
        .iter()
        .any(|a| a == "help" || super::words::is_help_option(a));
    // (`pulumi destroy --preview-only` shows the plan; `fly deploy --build-only` builds the
    // image and deploys nothing.)
    let checks = cmd.args().iter().any(|a| {
        a.starts_with("--dry-run")
            || a == "--dryrun"
            || a == "--preview"
            || a == "--preview-only"
            || a == "--build-only"
            || a == "--check"
            || (program == "ansible-playbook"
                && matches!(
                    a.as_str(),
                    "-C" | "--syntax-check" | "--list-tasks" | "--list-hosts"
                ))
    });
    if asks_help || checks {
        return;
    }
    if program == "kubectl" && words.first() == Some(&"delete") {
        let wholesale = words.get(1).is_some_and(|kind| WHOLESALE.contains(kind))
            || cmd.args().iter().any(|a| a == "--all");
        if !wholesale {
            effect = Effect::Change;
        }
    }
    scan.network = true;
    let prod = targets_production(cmd);
    let what = describe(program, &words);
    let where_ = if prod { " in production" } else { "" };
    let (rule, act, reason) = match effect {
        Effect::Change => (
            RuleId::InfraChange,
            Act::Deploy,
            format!("{what} changes deployed systems{where_}, which warden can't take back"),
        ),
        Effect::Destroy => (
            RuleId::InfraDestroy,
            Act::Destroy,
            format!("{what} destroys deployed resources{where_}"),
        ),
    };
    let mut wish = Wish::new(act);
    if prod {
        wish = wish.naming(Name::Production);
    }
    // A destroy of a resource it names is asked for by naming it ("delete the staging
    // namespace" for `kubectl delete namespace staging`); words that name another thing
    // ("delete the old stack") don't ask for it. One that names none (`terraform destroy`)
    // is asked for by the act said of what it is (a stack, an environment).
    if effect == Effect::Destroy
        && let Some(name) = destroyed
    {
        wish = wish.naming(Name::one(name));
    }
    scan.add(
        Risk::new(rule, Harm::Severe, true, reason)
            .way_out()
            .wish(wish),
    );
}

/// Global options of these tools that take a value: the value is not a subcommand.
pub(super) const VALUED: &[&str] = &[
    "--context",
    "-n",
    "--namespace",
    "--kubeconfig",
    "--cluster",
    "--user",
    "-s",
    "--server",
    "--project",
    "--region",
    "--profile",
    "-a",
    "--app",
    "--chdir",
    "--stack",
    "--cwd",
    "--scope",
    "--token",
    "-c",
    "--config",
    "--kube-context",
    "--account",
    "--zone",
    "-e",
    "--environment",
    "--env",
];

/// The positionals when every long option before the first one takes the word after it
/// (`--workdir x`, `--service api`), as [`VALUED`]'s do.
fn leading_values_skipped(args: &[String]) -> Vec<&str> {
    let mut out = Vec::new();
    let mut skip = false;
    for arg in args {
        if skip {
            skip = false;
        } else if arg.starts_with('-') {
            skip = VALUED.contains(&arg.as_str())
                || (out.is_empty() && arg.starts_with("--") && !arg.contains('='));
        } else {
            out.push(arg.as_str());
        }
    }
    out
}

pub(super) fn positional_after_values(args: &[String]) -> Vec<&str> {
    positional_after_values_of("", args)
}

/// Programs whose `--user` and `--system` take no value: they choose whose service manager
/// or installation the words act on (`systemctl --user restart api`, `flatpak --user
/// uninstall x`, `pip install --user x`), so the next word is still the subcommand.
const CHOOSES_SCOPE: &[&str] = &[
    "busctl",
    "flatpak",
    "journalctl",
    "loginctl",
    "pip",
    "pip3",
    "portablectl",
    "systemctl",
    "systemd-analyze",
    "systemd-run",
    "systemd-tmpfiles",
];

/// [`positional_after_values`] for `program`, whose own flags among [`VALUED`] take no value.
pub(super) fn positional_after_values_of<'a>(program: &str, args: &'a [String]) -> Vec<&'a str> {
    let scope_flag = CHOOSES_SCOPE.contains(&program);
    // The short ones (`-n`, `-s`, `-a`, `-c`, `-e`) take a value in the cloud's tools (`kubectl
    // -n prod`, `fly -a api`); in the other programs the catalogue knows they are as often a
    // flag (`pm2 -s delete all`, `systemctl -a stop x`), and a value that is a word is rare.
    let short_flags = !program.is_empty()
        && catalogue::program(program).is_some_and(|found| !found.is(Class::Cloud));
    // A program whose one-letter options the catalogue knows from its help: a letter that
    // takes a value takes the next word (`xauth -f path/to/file`, `curl -o out URL`).
    let valued = crate::catalogue::options::known(program)
        .and_then(|known| known.short)
        .map_or("", |short| short.valued);
    let mut out = Vec::new();
    let mut skip = false;
    for arg in args {
        let letter = arg
            .strip_prefix('-')
            .filter(|rest| rest.len() == 1 && !rest.starts_with('-'))
            .and_then(|rest| rest.chars().next());
        if skip {
            skip = false;
        } else if letter.is_some_and(|letter| valued.contains(letter))
            || (VALUED.contains(&arg.as_str())
                && !(scope_flag && matches!(arg.as_str(), "--user" | "--system"))
                && !(short_flags && arg.len() == 2))
        {
            skip = true;
        } else if !arg.starts_with('-') {
            out.push(arg.as_str());
        }
    }
    out
}

/// The row that reads this program's words, and where it is in the table: the longest that
/// matches.
fn table_row(program: &str, words: &[&str]) -> Option<(usize, &'static Row)> {
    let mut best: Option<(usize, &'static Row)> = None;
    for at in BY_PROGRAM.rows(program) {
        let Some(row) = TABLE.get(at) else {
            continue;
        };
        let pattern = row.words;
        let matches = if pattern.is_empty() {
            // A bare tool (`vercel`) deploys, and so does one given the folder to deploy
            // (`vercel apps/web`); a known harmless subcommand does not.
            words.first().is_none_or(|first| {
                first.starts_with('-') || first.starts_with('.') || first.contains('/')
            })
        } else {
            pattern.len() <= words.len()
                && pattern
                    .iter()
                    .zip(words)
                    .all(|(want, got)| *want == "*" || want == got)
        };
        if matches && best.is_none_or(|(_, kept)| pattern.len() > kept.words.len()) {
            best = Some((at, row));
        }
    }
    best
}

/// gcloud, az and aws verbs that aren't in the table: `… deploy`, `delete-*`, `terminate-*`,
/// `create-*`, `put-*`, `update-*`.
fn cloud_effect(program: &str, words: &[&str]) -> Option<Effect> {
    match program {
        "gcloud" | "az" => {
            if words.iter().any(|w| matches!(*w, "delete" | "destroy")) {
                Some(Effect::Destroy)
            } else if words.iter().any(|w| {
                matches!(
                    *w,
                    "deploy"
                        | "create"
                        | "update"
                        | "set-iam-policy"
                        | "add-iam-policy-binding"
                        | "apply"
                        | "resize"
                        // What a resource is made or put back from, or where it runs: a
                        // disk's snapshot taken, an instance cloned, patched, moved,
                        // upgraded, rolled back, failed over, a service replaced, a table's
                        // entity merged.
                        | "clone"
                        | "failover"
                        | "merge"
                        | "move"
                        | "patch"
                        | "promote-replica"
                        | "replace"
                        | "restore"
                        | "rollback"
                        | "snapshot"
                        | "upgrade"
                ) && !(*w == "upgrade" && upgrades_itself(words))
            }) {
                Some(Effect::Change)
            } else if words.contains(&"export") && words.iter().any(|w| w.starts_with("gs://")) {
                // An export written into a bucket (`gcloud sql export sql db gs://b/f.gz`),
                // as an import read from one changes the database (`gcloud sql import`).
                Some(Effect::Change)
            } else {
                None
            }
        }
        "aws" => aws_effect(
            words.first().copied().unwrap_or(""),
            words.get(1).copied().unwrap_or(""),
        ),
        "salt" | "salt-ssh" => salt_effect(words),
        _ => service_effect(program, words),
    }
}

/// `az upgrade`, `az bicep upgrade`, `gcloud components update`: the CLI's own parts on
/// this machine, not a resource of the cloud.
fn upgrades_itself(words: &[&str]) -> bool {
    matches!(
        words.first(),
        Some(&("bicep" | "components" | "extension" | "upgrade"))
    )
}

/// What `salt TARGET MODULE.FUNCTION ARGS…` does on the minions it targets: a function that
/// only reads (`test.ping`, `grains.items`, `pkg.list_pkgs`, `service.status`,
/// `state.show_sls`) or is told to only test (`test=True`) changes nothing; any other
/// (`state.highstate`, `state.apply`, `pkg.install`, `service.restart`, `user.add`) changes
/// every host it targets. The functions that run a shell command (`cmd.run`) are read as
/// that command, on the hosts (`runs::fleet`).
fn salt_effect(words: &[&str]) -> Option<Effect> {
    let function = words.get(1)?;
    let (module, name) = function.split_once('.')?;
    let reads_module = matches!(
        module,
        "test" | "grains" | "pillar" | "sys" | "status" | "cmd"
    );
    let reads_name = [
        "list",
        "get",
        "show",
        "info",
        "status",
        "version",
        "ping",
        "items",
        "item",
        "ls",
        "is_",
        "has_",
        "available",
        "which",
        "usage",
        "search",
        "diff",
    ]
    .iter()
    .any(|read| name.starts_with(read));
    let tests = words.iter().any(|w| w.eq_ignore_ascii_case("test=true"));
    (!reads_module && !reads_name && !tests).then_some(Effect::Change)
}

/// What an aws operation does, by its service and its verb. AWS names every operation
/// verb-first (`describe-instances`, `put-object`, `unsubscribe`), so the few verbs that only
/// read are listed and every other operation of a service is a change to the cloud: a verb no
/// table lists (`sns unsubscribe`, `acm request-certificate`, `batch cancel-job`) is still
/// someone else's system changed.
fn aws_effect(service: &str, verb: &str) -> Option<Effect> {
    match service {
        // The CLI's own settings, help and history, a login (`words.grant`), and the
        // credentials sts prints (`words.secret`) are not the cloud changed.
        "" | "configure" | "help" | "history" | "sso" | "sts" | "cli" => return None,
        // s3's own commands: copies are the network's (`net.rs`), listings read.
        "s3" => {
            return match verb {
                "rm" | "rb" => Some(Effect::Destroy),
                "mb" | "website" => Some(Effect::Change),
                _ => None,
            };
        }
        _ => {}
    }
    // `lambda invoke` runs a deployed function (`remote.exec`); a login keeps a credential here
    // (`words.grant`); `eks update-kubeconfig` writes this machine's kubeconfig.
    if verb.is_empty()
        || matches!(
            verb,
            "help" | "wait" | "invoke" | "login" | "update-kubeconfig"
        )
    {
        return None;
    }
    if ["delete-", "terminate-", "remove-"]
        .iter()
        .any(|p| verb.starts_with(p))
        || verb == "deregister"
    {
        return Some(Effect::Destroy);
    }
    let bare = verb.strip_prefix("admin-").unwrap_or(verb);
    let reads = AWS_READS.iter().any(|read| match read.strip_suffix('-') {
        Some(stem) => bare.starts_with(read) || bare == stem,
        None => bare == *read,
    });
    (!reads).then_some(Effect::Change)
}

/// The verbs of aws operations that only read (a `-` ends a verb that takes a noun).
#[rustfmt::skip]
const AWS_READS: &[&str] = &[
    "batch-get-", "check-", "decode-", "describe-", "detect-", "discover-", "download-", "estimate-", "filter-",
    "get-", "head-", "list-", "lookup-", "preview-", "query", "receive-", "scan", "search-", "select", "show-", "simulate-",
    // A query of logs or trails, and logs followed as they come (`logs start-query`,
    // `cloudtrail start-query`, `logs start-live-tail`); not athena's
    // `start-query-execution`, whose SQL may write.
    "start-live-tail", "start-query", "tail", "test-", "validate-", "verify-", "view-",
];

/// Verbs that destroy, as a service's subcommand words say them.
#[rustfmt::skip]
const DESTROY_VERBS: &[&str] = &[
    "delete", "destroy", "purge", "rm", "rb", "drop", "flush", "prune", "forget", "unregister", "revoke", "rdelete",
    "repo-delete", "deletefile", "delete_user", "delete_vhost", "delete_queue", "clear_permissions", "remove-secret",
    "del", "disable", "archive", "cleanup", "deleteall", "del-key", "delete-records", "apps:destroy", "pg:reset",
    "rmdir", "rmdirs", "remove",
];

fn service_effect(program: &str, words: &[&str]) -> Option<Effect> {
    use crate::catalogue::{Class, is};
    // A container engine's virtual machine (`podman machine rm`, `podman machine reset`)
    // holds every container, image and volume of the engine on its disk, as a machine of
    // `multipass` does: removed or reset, they are gone.
    if is(program, Class::Container) && words.first() == Some(&"machine") {
        return words
            .iter()
            .skip(1)
            .take(2)
            .any(|w| DESTROY_VERBS.contains(w) || *w == "reset")
            .then_some(Effect::Destroy);
    }
    // What keeps what nobody else has a copy of is the catalogue's to say (`Class::Keeps`).
    if !is(program, Class::Keeps) {
        return None;
    }
    if program.starts_with("kafka-") {
        // kafka's tools say what they do with an option (`--delete`, `--remove`).
        return None;
    }
    // gh's read-only and local subcommands don't reach the service's data.
    if matches!(program, "gh" | "glab")
        && words.first().is_some_and(|w| {
            matches!(
                *w,
                "alias"
                    | "config"
                    | "extension"
                    | "ext"
                    | "completion"
                    | "auth"
                    | "codespace"
                    | "cache"
                    | "label"
            )
        })
    {
        return None;
    }
    let verb = words.iter().take(3).find(|w| DESTROY_VERBS.contains(w));
    verb.map(|_| Effect::Destroy)
}

pub(super) fn targets_production(cmd: &Command) -> bool {
    // aws names its operations verb first and never after an environment (`logs
    // start-live-tail` is no production's): its service and operation say nothing of one.
    let operation = (cmd.program() == "aws").then(|| {
        let words = positional_after_values(cmd.args());
        (words.first().copied(), words.get(1).copied())
    });
    cmd.words
        .iter()
        .skip(1)
        .filter(|word| {
            operation.is_none_or(|(service, verb)| {
                Some(word.as_str()) != service && Some(word.as_str()) != verb
            }) && !turned_off(word)
        })
        .chain(cmd.assignments.iter().map(|(_, value)| value))
        .any(|word| {
            word.to_lowercase()
                .split(|c: char| !c.is_ascii_alphanumeric())
                .any(|part| PROD_MARKS.contains(&part))
        })
}

/// An option that turns itself off (`--prod=false`, `--production=0`, `--no-prod`): what it
/// names is not what the command does.
fn turned_off(word: &str) -> bool {
    word.starts_with("--no-")
        || word.split_once('=').is_some_and(|(flag, value)| {
            flag.starts_with('-')
                && matches!(
                    value.to_ascii_lowercase().as_str(),
                    "false" | "0" | "no" | "off"
                )
        })
}

fn describe(program: &str, words: &[&str]) -> String {
    let sub: Vec<&str> = words
        .iter()
        .take(2)
        .copied()
        .filter(|w| !w.contains('/') && w.len() < 30)
        .collect();
    if sub.is_empty() {
        program.to_string()
    } else {
        format!("{program} {}", sub.join(" "))
    }
}

/// The table's rows, for the one test that walks every table's examples (`rows.rs`).
#[cfg(test)]
pub(super) fn walked() -> Vec<super::rows::Walked> {
    TABLE
        .iter()
        .enumerate()
        .map(|(index, row)| super::rows::Walked {
            table: "infra::TABLE",
            index,
            program: row.program,
            words: row.words,
            examples: row.examples,
            judges,
        })
        .collect()
}

/// Does row `at` judge the line: the table picks it for one of the line's commands, and the
/// line's assessment has the row's rule, said of its program?
#[cfg(test)]
fn judges(at: usize, line: &crate::shell::Line, found: &super::Assessment) -> bool {
    let Some(row) = TABLE.get(at) else {
        return false;
    };
    let picked = line.commands.iter().any(|cmd| {
        table_row(cmd.program(), &positional_after_values(cmd.args()))
            .is_some_and(|(index, _)| index == at)
    });
    let said = |rule: RuleId| {
        found
            .risks
            .iter()
            .any(|risk| risk.rule == rule && risk.reason.starts_with(row.program))
    };
    picked
        && match row.effect {
            Some(Effect::Change) => said(RuleId::InfraChange),
            Some(Effect::Destroy) => said(RuleId::InfraDestroy),
            // A row that only reads judges a line by leaving it alone: no rule finds anything.
            None => found.risks.is_empty(),
        }
}
